// `list`: the default scheduling policy. A task is ready once every input has arrived at its
// unit (its producer's end plus the input's transfer time, or later when links queue).
// Whenever an instance of a unit type is free and tasks of that type are ready, the ready task
// with the smallest id starts at once on the free instance with the smallest index; unit
// types are served in order. No barriers, no lookahead.
#include <functional>
#include <queue>

#include "sim/sched/policy.hpp"

namespace lightcode::sched {
namespace {

class ListDispatcher final : public Dispatcher {
 public:
  ListDispatcher(const opt::TaskGraph& graph, const std::vector<int>& instances)
      : tasks_(graph.tasks), ready_(instances.size()), free_(instances.size()), instance_of_(graph.tasks.size(), 0) {
    for (size_t t = 0; t < instances.size(); ++t) {
      for (int k = 0; k < instances[t]; ++k) free_[t].push(k);
    }
  }

  void arrived(opt::TaskId task, Time) override { ready_[type_of(task)].push(task); }

  void finished(opt::TaskId task, Time) override {
    free_[type_of(task)].push(instance_of_[static_cast<size_t>(task)]);
  }

  std::optional<Decision> next(Time now) override {
    for (size_t t = 0; t < ready_.size(); ++t) {
      if (ready_[t].empty() || free_[t].empty()) continue;
      const opt::TaskId task = ready_[t].top();
      ready_[t].pop();
      const int32_t instance = free_[t].top();
      free_[t].pop();
      instance_of_[static_cast<size_t>(task)] = instance;
      return Decision{task, instance, now};
    }
    return std::nullopt;
  }

 private:
  size_t type_of(opt::TaskId task) const { return static_cast<size_t>(tasks_[static_cast<size_t>(task)].unit); }

  const std::vector<opt::Task>& tasks_;
  template <class T>
  using MinHeap = std::priority_queue<T, std::vector<T>, std::greater<>>;
  std::vector<MinHeap<opt::TaskId>> ready_;
  std::vector<MinHeap<int32_t>> free_;  // free instances per unit type, lowest first
  std::vector<int32_t> instance_of_;
};

class ListPolicy final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "list"; }
  std::string_view description() const override {
    return "ready tasks (every input arrived) start at once: smallest task id onto the free instance with the "
           "smallest index, unit type by unit type";
  }
  std::unique_ptr<Dispatcher> dispatcher(const opt::TaskGraph& tasks, const std::vector<int>& instances) const override {
    return std::make_unique<ListDispatcher>(tasks, instances);
  }
};

}  // namespace

std::unique_ptr<SchedulingPolicy> make_list_policy() { return std::make_unique<ListPolicy>(); }

}  // namespace lightcode::sched
