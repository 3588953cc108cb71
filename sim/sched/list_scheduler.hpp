#pragma once
// Analytical list schedulers: fast timelines without the event kernel.
//
// Default policy (what the SystemC engine reproduces exactly with contention off): a task is
// ready when every input has arrived, at max(producer end + transfer time) over all inputs.
// Whenever an instance of a unit type is free and tasks of that type are ready, the ready task
// with the smallest id starts on the free instance with the smallest index. No barriers.
//
// Lightcode policy: the original's, quirks included (see lightcode_scheduler.hpp).
#include <vector>

#include "hw_models/system.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::sched {

// instances[t] = how many tasks unit type t runs at once (HardwareModel::unit_count()).
std::vector<int> unit_instances(const hw::System& system);

Schedule list_schedule(const opt::TaskGraph& tasks, const std::vector<int>& instances);

}  // namespace lightcode::sched
