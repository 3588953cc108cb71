#include "sim/sched/list_scheduler.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>
#include <stdexcept>

#include "sim/core/checked.hpp"

namespace lightcode::sched {

std::vector<int> unit_instances(const hw::System& system) {
  std::vector<int> n(system.unit_count());
  for (size_t t = 0; t < n.size(); ++t) n[t] = system.model(static_cast<hw::UnitType>(t)).unit_count();
  return n;
}

Schedule list_schedule(const opt::TaskGraph& graph, const std::vector<int>& instances) {
  const auto& tasks = graph.tasks;
  const size_t n = tasks.size();
  Schedule s;
  s.slots.resize(n);
  std::vector<std::vector<opt::TaskId>> consumers(n);
  std::vector<int32_t> pending(n, 0);
  std::vector<int64_t> ready_at(n, 0);
  for (size_t i = 0; i < n; ++i) {
    pending[i] = static_cast<int32_t>(tasks[i].inputs.size());
    for (const auto& in : tasks[i].inputs) consumers[static_cast<size_t>(in.producer)].push_back(static_cast<opt::TaskId>(i));
  }
  const size_t types = instances.size();
  using MinId = std::priority_queue<opt::TaskId, std::vector<opt::TaskId>, std::greater<>>;
  std::vector<MinId> ready(types);                 // ready now, by id
  using Arrival = std::pair<int64_t, opt::TaskId>;  // (ready time, id)
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> arriving;
  std::vector<std::set<int32_t>> free_instances(types);
  for (size_t t = 0; t < types; ++t) {
    for (int k = 0; k < instances[t]; ++k) free_instances[t].insert(k);
  }
  using Finish = std::pair<int64_t, opt::TaskId>;
  std::priority_queue<Finish, std::vector<Finish>, std::greater<>> running;

  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) arriving.push({0, static_cast<opt::TaskId>(i)});
  }
  size_t done = 0;
  int64_t now = 0;
  while (done < n) {
    // Finish everything ending now, releasing instances and data.
    while (!running.empty() && running.top().first <= now) {
      const auto [end, id] = running.top();
      running.pop();
      ++done;
      const auto& task = tasks[static_cast<size_t>(id)];
      free_instances[static_cast<size_t>(task.unit)].insert(s.slots[static_cast<size_t>(id)].instance);
      for (opt::TaskId c : consumers[static_cast<size_t>(id)]) {
        const auto& ct = tasks[static_cast<size_t>(c)];
        for (const auto& in : ct.inputs) {
          if (in.producer == id) {
            ready_at[static_cast<size_t>(c)] = std::max(ready_at[static_cast<size_t>(c)],
                                                        add_ps(end, in.transfer.time.count_ps(), [&] {
                                                          return std::string(kScheduleTime) + " at the input of task '" + ct.name + "'";
                                                        }));
          }
        }
        if (--pending[static_cast<size_t>(c)] == 0) arriving.push({ready_at[static_cast<size_t>(c)], c});
      }
    }
    while (!arriving.empty() && arriving.top().first <= now) {
      const opt::TaskId id = arriving.top().second;
      arriving.pop();
      ready[static_cast<size_t>(tasks[static_cast<size_t>(id)].unit)].push(id);
    }
    // Dispatch: lowest id onto lowest free instance, per unit type.
    bool started_zero_length = false;
    for (size_t t = 0; t < types; ++t) {
      while (!ready[t].empty() && !free_instances[t].empty()) {
        const opt::TaskId id = ready[t].top();
        ready[t].pop();
        const int32_t inst = *free_instances[t].begin();
        free_instances[t].erase(free_instances[t].begin());
        const opt::Task& task = tasks[static_cast<size_t>(id)];
        const int64_t end = add_ps(now, task.cost.time.count_ps(), [&] {
          return std::string(kScheduleTime) + " at the end of task '" + task.name + "'";
        });
        s.slots[static_cast<size_t>(id)] = Slot{inst, now, end};
        running.push({end, id});
        started_zero_length = started_zero_length || end == now;
      }
    }
    if (done == n) break;
    if (started_zero_length) continue;  // zero-length tasks finish at this same instant
    int64_t next = INT64_MAX;
    if (!running.empty()) next = std::min(next, running.top().first);
    if (!arriving.empty()) next = std::min(next, arriving.top().first);
    if (next == INT64_MAX) throw std::logic_error("list_schedule: tasks left that can never run (cycle?)");
    now = next;
  }
  for (const Slot& slot : s.slots) s.makespan_ps = std::max(s.makespan_ps, slot.end_ps);
  return s;
}

}  // namespace lightcode::sched
