// `lightcode`: the original LightCode's scheduler as ../shared/reference/LIGHTCODE_MODEL.md
// ("Pipeline", steps 5 and 6) states it from running the original's code. It plans the whole
// timeline from the tasks' costs, then hands the decisions to the driver:
//  - subgraphs run one after another; before each, every instance of every unit type is
//    brought to the latest instance time (a barrier);
//  - a subgraph's `start` task takes no unit time and its end counts as 0, so the tasks
//    hanging off it go to the earliest-free instance at the barrier;
//  - readiness order: the loop pops the placed task with the smallest finish (the first placed
//    on ties), then places, in the subgraph's node-list order (opt::Task::rank: `start`, the
//    ops with no parent inside the group, then the group's ALAP order; each expanded op's
//    split, products and merge before the rest), each consumer whose last unprocessed producer
//    that was. Tasks without a producer inside the subgraph are placed first;
//  - a task goes to the instance of its unit type that became free latest but not after its
//    producers' finishes, else to the earliest-free instance; it starts at the later of the
//    instance's time and those finishes;
//  - one edge per task: the instance is busy for the task's time plus the transfer time of
//    the edge from the producer that released it, and that is the task's finish;
//  - a task marked off_unit (a graph output: a node no other node reads) occupies no
//    instance: it ends when its producers' compute ends;
//  - graph inputs (memory tasks) take no unit time: complete() places each at its earliest
//    consumer's start less that edge's transfer time, and when one would start before 0,
//    shifts every start and the makespan later by that amount.
// Makespan = the latest instance time. The lightcode profile's default; docs/LIGHTCODE_PROFILE.md
// says which rule is a fact of the page and which is inferred.
#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <tuple>

#include "sim/sched/instance_choice.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::sched {
namespace {

class LightcodeDispatcher final : public Dispatcher {
 public:
  LightcodeDispatcher(const opt::TaskGraph& graph, const std::vector<int>& instances)
      : tasks_(graph.tasks),
        decisions_(tasks_.size()),
        consumers_(tasks_.size()),
        compute_end_(tasks_.size()) {
    for (size_t i = 0; i < tasks_.size(); ++i) {
      for (const opt::TaskInput& in : tasks_[i].inputs) {
        consumers_[static_cast<size_t>(in.producer)].push_back(static_cast<opt::TaskId>(i));
      }
    }
    for (auto& c : consumers_) std::stable_sort(c.begin(), c.end(), [this](opt::TaskId a, opt::TaskId b) { return listed_before(a, b); });
    plan(instances);
  }

  void arrived(opt::TaskId, Time) override {}
  void finished(opt::TaskId, Time) override {}
  bool reacts() const override { return false; }

  std::optional<Decision> next(Time) override {
    if (next_ == order_.size()) return std::nullopt;
    return decisions_[static_cast<size_t>(order_[next_++])];
  }

  void complete(Schedule& s) override {
    // A graph input starts at its earliest consumer's start less that edge's time (signed:
    // it may fall before 0); then everything shifts so that nothing starts before 0.
    std::vector<int64_t> input_ps(tasks_.size(), 0);
    std::vector<uint8_t> consumed(tasks_.size(), 0);
    int64_t earliest = 0;
    for (size_t i = 0; i < tasks_.size(); ++i) {
      for (const opt::TaskInput& in : tasks_[i].inputs) {
        const auto p = static_cast<size_t>(in.producer);
        if (tasks_[p].kind != ir::OpKind::memory) continue;
        const int64_t ps = s.slots[i].start.count_ps() - in.transfer.time.count_ps();
        input_ps[p] = consumed[p] ? std::min(input_ps[p], ps) : ps;
        consumed[p] = 1;
        earliest = std::min(earliest, ps);
      }
    }
    const Time shift = Time::ps(-earliest);
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (tasks_[i].kind == ir::OpKind::memory) {
        const Time at = Time::ps(input_ps[i] - earliest);
        s.slots[i] = Slot{0, at, at};
      } else {
        s.slots[i].start = s.slots[i].start.plus(shift, kScheduleTime);
        s.slots[i].end = s.slots[i].end.plus(shift, kScheduleTime);
      }
    }
    s.makespan = makespan_.plus(shift, kScheduleTime);
  }

 private:
  using Clock = std::vector<std::vector<Time>>;  // [unit type][instance]

  // The subgraph's node list order (opt::Task::rank); stable sorts keep task order on ties.
  bool listed_before(opt::TaskId a, opt::TaskId b) const {
    return tasks_[static_cast<size_t>(a)].rank < tasks_[static_cast<size_t>(b)].rank;
  }

  // The latest instance time over the units that run tasks (not the start pseudo-unit).
  Time latest(const Clock& clock) const {
    Time m = Time::zero();
    for (size_t u = 0; u < clock.size(); ++u) {
      if (start_unit_[u]) continue;
      for (Time x : clock[u]) m = std::max(m, x);
    }
    return m;
  }

  void plan(const std::vector<int>& instances) {
    Clock clock(instances.size());
    for (size_t t = 0; t < instances.size(); ++t)
      clock[t].assign(static_cast<size_t>(instances[t]), Time::zero());
    start_unit_.assign(instances.size(), 0);
    for (const opt::Task& t : tasks_) {
      if (t.kind == ir::OpKind::start) start_unit_[static_cast<size_t>(t.unit)] = 1;
    }
    waiting_.assign(tasks_.size(), 0);
    std::vector<Time> finish(tasks_.size());
    size_t i = 0;
    while (i < tasks_.size()) {
      // One subgraph: tasks [i, j).
      size_t j = i;
      while (j < tasks_.size() && tasks_[j].subgraph == tasks_[i].subgraph) ++j;
      const Time barrier = latest(clock);
      for (size_t u = 0; u < clock.size(); ++u) {
        if (start_unit_[u]) continue;
        for (Time& x : clock[u]) x = std::max(x, barrier);
      }
      plan_subgraph(i, j, barrier, clock, finish);
      i = j;
    }
    makespan_ = latest(clock);
  }

  void plan_subgraph(size_t first, size_t last, Time barrier, Clock& clock,
                     std::vector<Time>& finish) {
    auto inside = [&](opt::TaskId t) {
      return static_cast<size_t>(t) >= first && static_cast<size_t>(t) < last;
    };
    // Placed tasks by (finish, placement sequence): the first placed wins ties.
    using Entry = std::tuple<int64_t, int64_t, opt::TaskId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> placed;
    int64_t sequence = 0;
    auto place = [&](opt::TaskId id, const opt::TaskInput* released_by) {
      const opt::Task& t = tasks_[static_cast<size_t>(id)];
      const auto at_task = [&t] {
        return std::string(kScheduleTime) + " at task '" + t.name + "'";
      };
      Time ready = Time::zero();  // `start` ends at 0: the instance's time decides
      for (const opt::TaskInput& in : t.inputs) {
        if (inside(in.producer)) ready = std::max(ready, finish[static_cast<size_t>(in.producer)]);
      }
      order_.push_back(id);
      if (t.kind == ir::OpKind::memory) {
        decisions_[static_cast<size_t>(id)] = Decision{id, 0, ready};
        finish[static_cast<size_t>(id)] = ready;  // no unit time
      } else if (t.kind == ir::OpKind::start) {
        // No time, and its end counts as 0: the tasks hanging off it go to the earliest-free
        // instance, at the barrier. A start task that has a cost still holds its own
        // pseudo-unit (outside the barrier) so that runs never overlap there.
        Time& pseudo = clock[static_cast<size_t>(t.unit)][0];
        const Time at = std::max(pseudo, barrier);
        pseudo = at.plus(t.cost.time, at_task);
        decisions_[static_cast<size_t>(id)] = Decision{id, 0, at};
        finish[static_cast<size_t>(id)] = Time::zero();
      } else if (t.off_unit) {
        // A graph output occupies no unit: it ends when its producers' compute ends.
        Time at = Time::zero();
        for (const opt::TaskInput& in : t.inputs) {
          if (inside(in.producer))
            at = std::max(at, compute_end_[static_cast<size_t>(in.producer)]);
        }
        decisions_[static_cast<size_t>(id)] = Decision{id, 0, at};
        finish[static_cast<size_t>(id)] = at;
      } else {
        auto& unit = clock[static_cast<size_t>(t.unit)];
        const int best = latest_free_not_after(unit, ready);
        const Time start = std::max(unit[static_cast<size_t>(best)], ready);
        const Time edge = released_by ? released_by->transfer.time : Time::zero();
        compute_end_[static_cast<size_t>(id)] = start.plus(t.cost.time, at_task);
        finish[static_cast<size_t>(id)] = compute_end_[static_cast<size_t>(id)].plus(edge, at_task);
        unit[static_cast<size_t>(best)] = finish[static_cast<size_t>(id)];
        decisions_[static_cast<size_t>(id)] = Decision{id, best, start};
      }
      placed.emplace(finish[static_cast<size_t>(id)].count_ps(), sequence++, id);
    };
    // Producers inside the subgraph, still unprocessed, per task; memory tasks (graph inputs)
    // are not producers the schedule waits for.
    for (size_t k = first; k < last; ++k) {
      for (const opt::TaskInput& in : tasks_[k].inputs) {
        if (inside(in.producer) &&
            tasks_[static_cast<size_t>(in.producer)].kind != ir::OpKind::memory)
          ++waiting_[k];
      }
    }
    std::vector<opt::TaskId> unblocked;
    for (size_t k = first; k < last; ++k) {
      if (waiting_[k] == 0) unblocked.push_back(static_cast<opt::TaskId>(k));
    }
    std::stable_sort(unblocked.begin(), unblocked.end(),
                     [this](opt::TaskId a, opt::TaskId b) { return listed_before(a, b); });
    for (opt::TaskId k : unblocked) place(k, nullptr);
    while (!placed.empty()) {
      const opt::TaskId done = std::get<2>(placed.top());
      placed.pop();
      if (tasks_[static_cast<size_t>(done)].kind == ir::OpKind::memory) continue;
      for (opt::TaskId c : consumers_[static_cast<size_t>(done)]) {
        if (!inside(c) || --waiting_[static_cast<size_t>(c)] != 0) continue;
        const opt::TaskInput* edge = nullptr;
        for (const opt::TaskInput& in : tasks_[static_cast<size_t>(c)].inputs) {
          if (in.producer == done) edge = &in;
        }
        place(c, edge);
      }
    }
  }

  const std::vector<opt::Task>& tasks_;
  std::vector<Decision> decisions_;  // by task
  std::vector<std::vector<opt::TaskId>> consumers_;
  std::vector<opt::TaskId> order_;   // placement order, handed out by next()
  std::vector<uint8_t> start_unit_;  // per unit type: runs start tasks (outside the barrier)
  std::vector<int> waiting_;         // per task: producers inside its subgraph not yet processed
  std::vector<Time> compute_end_;    // start + time, without the trailing edge
  size_t next_ = 0;
  Time makespan_;
};

class LightcodePolicy final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "lightcode"; }
  std::string_view description() const override {
    return "the original's, as LIGHTCODE_MODEL.md states it: subgraph barriers, readiness order, "
           "start takes no "
           "time, one edge per task on the consumer's unit, graph inputs placed before their first "
           "consumer";
  }
  std::unique_ptr<Dispatcher> dispatcher(const opt::TaskGraph& tasks,
                                         const std::vector<int>& instances) const override {
    return std::make_unique<LightcodeDispatcher>(tasks, instances);
  }
};

}  // namespace

std::unique_ptr<SchedulingPolicy> make_lightcode_policy() {
  return std::make_unique<LightcodePolicy>();
}

}  // namespace lightcode::sched
