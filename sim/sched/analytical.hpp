#pragma once
// The analytical scheduler: drives a scheduling policy (sim/sched/policy.hpp) without the
// event kernel. Inputs arrive at their producer's end plus the transfer's model time (links
// never queue); a task runs for its cost's time. This is the timeline the SystemC engine
// reproduces to the picosecond with contention off, driving the same policy.
#include <vector>

#include "hw_models/system.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/policy.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::sched {

// instances[t] = how many tasks unit type t runs at once (HardwareModel::unit_count()).
std::vector<int> unit_instances(const hw::System& system);

// Throws lightcode::Error when a time cannot be represented, or when the policy leaves
// tasks that can never start.
Schedule schedule(const opt::TaskGraph& tasks, const std::vector<int>& instances, const SchedulingPolicy& policy);

}  // namespace lightcode::sched
