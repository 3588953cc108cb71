#include "sim/sched/lightcode_scheduler.hpp"

#include <algorithm>
#include <cstdint>

#include "sim/core/checked.hpp"

namespace lightcode::sched {

Schedule lightcode_schedule(const opt::TaskGraph& graph, const std::vector<int>& instances) {
  const auto& tasks = graph.tasks;
  Schedule s;
  s.slots.resize(tasks.size());
  std::vector<std::vector<int64_t>> free_at(instances.size());
  for (size_t t = 0; t < instances.size(); ++t) free_at[t].assign(static_cast<size_t>(instances[t]), 0);
  auto latest = [&] {
    int64_t m = 0;
    for (const auto& unit : free_at) {
      for (int64_t x : unit) m = std::max(m, x);
    }
    return m;
  };
  auto raise_all = [&](int64_t to) {
    for (auto& unit : free_at) {
      for (int64_t& x : unit) x = std::max(x, to);
    }
  };
  std::vector<opt::TaskId> memory_tasks;
  int32_t subgraph = -1;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const opt::Task& t = tasks[i];
    if (t.subgraph != subgraph) {
      subgraph = t.subgraph;
      raise_all(latest());  // barrier
    }
    if (t.kind == ir::OpKind::memory) {
      memory_tasks.push_back(static_cast<opt::TaskId>(i));
      continue;
    }
    auto& unit = free_at[static_cast<size_t>(t.unit)];
    int64_t ready = 0;
    int64_t edges = 0;
    for (const opt::TaskInput& in : t.inputs) {
      const opt::Task& p = tasks[static_cast<size_t>(in.producer)];
      if (p.kind != ir::OpKind::memory) ready = std::max(ready, s.slots[static_cast<size_t>(in.producer)].end_ps);
      edges = add_ps(edges, in.transfer.time.count_ps(), kScheduleTime);
    }
    // Latest-free instance not after `ready`, else the earliest-free.
    int best = -1;
    for (size_t k = 0; k < unit.size(); ++k) {
      if (unit[k] <= ready && (best < 0 || unit[k] > unit[static_cast<size_t>(best)])) best = static_cast<int>(k);
    }
    if (best < 0) best = static_cast<int>(std::min_element(unit.begin(), unit.end()) - unit.begin());
    const int64_t start = std::max(unit[static_cast<size_t>(best)], ready);
    const auto at_task = [&t] { return std::string(kScheduleTime) + " at task '" + t.name + "'"; };
    const int64_t end = add_ps(start, t.cost.time.count_ps(), at_task);
    s.slots[i] = Slot{best, start, end};
    unit[static_cast<size_t>(best)] = add_ps(end, edges, at_task);
    if (t.kind == ir::OpKind::start) raise_all(end);  // the subgraph waits for its start
  }
  // Graph inputs sit just before their first consumer.
  std::vector<int64_t> first_use(tasks.size(), INT64_MAX);
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (const opt::TaskInput& in : tasks[i].inputs) {
      int64_t& f = first_use[static_cast<size_t>(in.producer)];
      f = std::min(f, s.slots[i].start_ps);
    }
  }
  for (opt::TaskId m : memory_tasks) {
    const int64_t at = first_use[static_cast<size_t>(m)] == INT64_MAX ? 0 : first_use[static_cast<size_t>(m)];
    s.slots[static_cast<size_t>(m)] = Slot{0, at, at};
  }
  s.makespan_ps = latest();
  return s;
}

}  // namespace lightcode::sched
