#include "sim/engine/graph_state.hpp"

#include "sim/sched/analytical.hpp"

namespace lightcode::engine {

GraphState::GraphState(const opt::TaskGraph& g, const hw::System& system, bool spill_sram,
                       const sched::SchedulingPolicy& policy, Time start)
    : graph(g),
      tasks(g.tasks),
      origin(start),
      memory(system, spill_sram, g.tasks.size()),
      dispatcher(policy.dispatcher(g, sched::unit_instances(system))) {
  const size_t n = tasks.size();
  result.start = origin;
  result.schedule.slots.resize(n);
  // Consumers of every task, as one flat array (use_begin[t] .. use_begin[t + 1]).
  pending.assign(n, 0);
  use_begin.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    pending[i] = static_cast<int32_t>(tasks[i].inputs.size());
    for (const auto& in : tasks[i].inputs) ++use_begin[static_cast<size_t>(in.producer) + 1];
  }
  for (size_t i = 0; i < n; ++i) use_begin[i + 1] += use_begin[i];
  uses.resize(use_begin[n]);
  transfers.reserve(uses.size());
  std::vector<uint32_t> fill(use_begin.begin(), use_begin.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < tasks[i].inputs.size(); ++k) {
      uses[fill[static_cast<size_t>(tasks[i].inputs[k].producer)]++] =
          Use{static_cast<opt::TaskId>(i), static_cast<int32_t>(k)};
    }
  }
  planned_instance.assign(n, 0);
  for (const int count : sched::unit_instances(system)) {
    deferred.emplace_back(static_cast<size_t>(count));
  }
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) dispatcher->arrived(static_cast<opt::TaskId>(i), Time::zero());
  }
}

}  // namespace lightcode::engine
