// `lightcode`: a list scheduler inferred from the seed table's four published makespans
// (docs/LIGHTCODE_PROFILE.md), not the original's own (that is `original`, original_policy.cpp,
// from LIGHTCODE_MODEL.md's established facts). It plans the whole timeline from the tasks'
// costs, then hands the decisions to the driver:
//  - subgraphs run one after another; before each, every unit is brought to the latest time
//    (a barrier), then its start task runs and every unit waits for it;
//  - within a subgraph, tasks go in graph order; each goes to the instance of its unit type
//    that became free latest but not after its inputs are ready (its non-memory producers'
//    ends), else the earliest-free one; it starts at max(instance free, inputs ready);
//  - the instance is then busy for the task's time plus the transfer time of every input
//    edge (edges delay the unit, not the consumer's readiness, as in the original);
//  - memory tasks (graph inputs) take no unit time: they run at 0 and complete() places them
//    just before their first consumer.
// Makespan = the latest instance time (trailing edge time included).
#include <algorithm>
#include <cstdint>

#include "sim/sched/instance_choice.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::sched {
namespace {

class LightcodeDispatcher final : public Dispatcher {
 public:
  LightcodeDispatcher(const opt::TaskGraph& graph, const std::vector<int>& instances) : tasks_(graph.tasks) {
    plan(instances);
  }

  void arrived(opt::TaskId, Time) override {}
  void finished(opt::TaskId, Time) override {}
  bool reacts() const override { return false; }

  std::optional<Decision> next(Time) override {
    if (next_ == decisions_.size()) return std::nullopt;
    return decisions_[next_++];
  }

  void complete(Schedule& s) override {
    // Graph inputs sit just before their first consumer.
    std::vector<Time> first_use(tasks_.size(), Time::max());
    for (size_t i = 0; i < tasks_.size(); ++i) {
      for (const opt::TaskInput& in : tasks_[i].inputs) {
        Time& f = first_use[static_cast<size_t>(in.producer)];
        f = std::min(f, s.slots[i].start);
      }
    }
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (tasks_[i].kind != ir::OpKind::memory) continue;
      const Time at = first_use[i] == Time::max() ? Time::zero() : first_use[i];
      s.slots[i] = Slot{0, at, at};
    }
    s.makespan = makespan_;
  }

 private:
  void plan(const std::vector<int>& instances) {
    std::vector<std::vector<Time>> free_at(instances.size());
    for (size_t t = 0; t < instances.size(); ++t) free_at[t].assign(static_cast<size_t>(instances[t]), Time::zero());
    auto latest = [&] {
      Time m = Time::zero();
      for (const auto& unit : free_at) {
        for (Time x : unit) m = std::max(m, x);
      }
      return m;
    };
    auto raise_all = [&](Time to) {
      for (auto& unit : free_at) {
        for (Time& x : unit) x = std::max(x, to);
      }
    };
    std::vector<Time> end(tasks_.size());
    int32_t subgraph = -1;
    for (size_t i = 0; i < tasks_.size(); ++i) {
      const opt::Task& t = tasks_[i];
      const auto id = static_cast<opt::TaskId>(i);
      if (t.subgraph != subgraph) {
        subgraph = t.subgraph;
        raise_all(latest());  // barrier
      }
      if (t.kind == ir::OpKind::memory) {
        decisions_.push_back(Decision{id, 0, Time::zero()});
        continue;
      }
      const auto at_task = [&t] { return std::string(kScheduleTime) + " at task '" + t.name + "'"; };
      auto& unit = free_at[static_cast<size_t>(t.unit)];
      Time ready = Time::zero();
      Time edges = Time::zero();
      for (const opt::TaskInput& in : t.inputs) {
        if (tasks_[static_cast<size_t>(in.producer)].kind != ir::OpKind::memory) {
          ready = std::max(ready, end[static_cast<size_t>(in.producer)]);
        }
        edges = edges.plus(in.transfer.time, at_task);
      }
      const int best = latest_free_not_after(unit, ready);
      const Time start = std::max(unit[static_cast<size_t>(best)], ready);
      end[i] = start.plus(t.cost.time, at_task);
      decisions_.push_back(Decision{id, best, start});
      unit[static_cast<size_t>(best)] = end[i].plus(edges, at_task);
      if (t.kind == ir::OpKind::start) raise_all(end[i]);  // the subgraph waits for its start
    }
    makespan_ = latest();
  }

  const std::vector<opt::Task>& tasks_;
  std::vector<Decision> decisions_;  // in task order
  size_t next_ = 0;
  Time makespan_;
};

class LightcodePolicy final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "lightcode"; }
  std::string_view description() const override {
    return "inferred from the seed table's makespans: subgraph barriers, graph order, the latest-free instance not "
           "after the inputs are ready, every input edge charged on the consumer's unit (docs/LIGHTCODE_PROFILE.md)";
  }
  std::unique_ptr<Dispatcher> dispatcher(const opt::TaskGraph& tasks, const std::vector<int>& instances) const override {
    return std::make_unique<LightcodeDispatcher>(tasks, instances);
  }
};

}  // namespace

std::unique_ptr<SchedulingPolicy> make_lightcode_policy() { return std::make_unique<LightcodePolicy>(); }

}  // namespace lightcode::sched
