#include "sim/sched/analytical.hpp"

#include <functional>
#include <queue>
#include <string>
#include <tuple>

#include "sim/core/error.hpp"

namespace lightcode::sched {

std::vector<int> unit_instances(const hw::System& system) {
  std::vector<int> n(system.unit_count());
  for (size_t t = 0; t < n.size(); ++t) n[t] = system.model(static_cast<hw::UnitType>(t)).unit_count();
  return n;
}

namespace {

// A plan made up front: every decision is final, so each task's slot follows from it alone.
Schedule carry_out_plan(const opt::TaskGraph& graph, const SchedulingPolicy& policy, Dispatcher& dispatcher,
                        Schedule s) {
  std::vector<bool> decided(graph.tasks.size(), false);
  size_t count = 0;
  while (const auto d = dispatcher.next(Time::zero())) {
    const opt::Task& task = graph.tasks[static_cast<size_t>(d->task)];
    s.slots[static_cast<size_t>(d->task)] =
        Slot{d->instance, d->start, d->start.plus(task.cost.time, [&] {
               return std::string(kScheduleTime) + " at the end of task '" + task.name + "'";
             })};
    if (!decided[static_cast<size_t>(d->task)]) ++count;
    decided[static_cast<size_t>(d->task)] = true;
  }
  if (count != graph.tasks.size()) {
    throw Error("scheduler '" + std::string(policy.name()) + "': " + std::to_string(graph.tasks.size() - count) +
                " tasks were never decided");
  }
  for (const Slot& slot : s.slots) s.makespan = std::max(s.makespan, slot.end);
  dispatcher.complete(s);
  return s;
}

}  // namespace

Schedule schedule(const opt::TaskGraph& graph, const std::vector<int>& instances, const SchedulingPolicy& policy) {
  const auto& tasks = graph.tasks;
  const size_t n = tasks.size();
  const std::unique_ptr<Dispatcher> dispatcher = policy.dispatcher(graph, instances);
  Schedule s;
  s.slots.resize(n);
  if (!dispatcher->reacts()) return carry_out_plan(graph, policy, *dispatcher, std::move(s));
  // Consumers of every task as one flat array: consumers[first[t] .. first[t + 1]).
  std::vector<uint32_t> first(n + 1, 0);
  std::vector<int32_t> pending(n, 0);
  std::vector<Time> ready_at(n);
  for (size_t i = 0; i < n; ++i) {
    pending[i] = static_cast<int32_t>(tasks[i].inputs.size());
    for (const auto& in : tasks[i].inputs) ++first[static_cast<size_t>(in.producer) + 1];
  }
  for (size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<opt::TaskId> consumers(first[n]);
  {
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (size_t i = 0; i < n; ++i) {
      for (const auto& in : tasks[i].inputs) consumers[fill[static_cast<size_t>(in.producer)]++] = static_cast<opt::TaskId>(i);
    }
  }
  // Three kinds of event, each a min-heap on (time, task id): a task finishing, a task's last
  // input arriving, a decided task starting later than when it was decided.
  using Event = std::pair<Time, opt::TaskId>;
  using Events = std::priority_queue<Event, std::vector<Event>, std::greater<>>;
  Events finishing, arriving, starting;
  std::vector<int32_t> planned_instance(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) arriving.push({Time::zero(), static_cast<opt::TaskId>(i)});
  }
  size_t done = 0;
  Time now = Time::zero();
  auto start = [&](opt::TaskId id, int32_t instance, Time at) {
    const opt::Task& task = tasks[static_cast<size_t>(id)];
    const Time end = at.plus(task.cost.time, [&] { return std::string(kScheduleTime) + " at the end of task '" + task.name + "'"; });
    s.slots[static_cast<size_t>(id)] = Slot{instance, at, end};
    finishing.push({end, id});  // a zero-length task finishes at this same instant, next round
  };
  while (done < n) {
    while (!finishing.empty() && finishing.top().first <= now) {
      const auto [end, id] = finishing.top();
      finishing.pop();
      ++done;
      dispatcher->finished(id, end);
      for (uint32_t u = first[static_cast<size_t>(id)]; u < first[static_cast<size_t>(id) + 1]; ++u) {
        const opt::TaskId c = consumers[u];
        const opt::Task& ct = tasks[static_cast<size_t>(c)];
        for (const auto& in : ct.inputs) {
          if (in.producer != id) continue;
          ready_at[static_cast<size_t>(c)] = std::max(ready_at[static_cast<size_t>(c)], end.plus(in.transfer.time, [&] {
            return std::string(kScheduleTime) + " at the input of task '" + ct.name + "'";
          }));
        }
        if (--pending[static_cast<size_t>(c)] == 0) arriving.push({ready_at[static_cast<size_t>(c)], c});
      }
    }
    while (!arriving.empty() && arriving.top().first <= now) {
      dispatcher->arrived(arriving.top().second, arriving.top().first);
      arriving.pop();
    }
    while (!starting.empty() && starting.top().first <= now) {
      const auto [at, id] = starting.top();
      starting.pop();
      start(id, planned_instance[static_cast<size_t>(id)], at);
    }
    while (const auto d = dispatcher->next(now)) {
      if (d->start <= now) {
        start(d->task, d->instance, now);
      } else {
        planned_instance[static_cast<size_t>(d->task)] = d->instance;
        starting.push({d->start, d->task});
      }
    }
    if (done == n) break;
    Time next = Time::max();
    for (const Events* e : {&finishing, &arriving, &starting}) {
      if (!e->empty()) next = std::min(next, e->top().first);
    }
    if (next == Time::max()) {
      throw Error("scheduler '" + std::string(policy.name()) + "': " + std::to_string(n - done) +
                  " tasks can never start (the policy decided none of them)");
    }
    now = next;
  }
  for (const Slot& slot : s.slots) s.makespan = std::max(s.makespan, slot.end);
  dispatcher->complete(s);
  return s;
}

}  // namespace lightcode::sched
