#pragma once
// The original's list scheduler (`lightcode` profile), as the seed table pins it down
// (docs/LIGHTCODE_PROFILE.md):
//  - subgraphs run one after another; before each, every unit is brought to the latest time
//    (a barrier), then its start task runs and every unit waits for it;
//  - within a subgraph, tasks go in graph order; each goes to the instance of its unit type
//    that became free latest but not after its inputs are ready, else the earliest-free one;
//    it starts at max(instance free, inputs ready);
//  - the instance is then busy for the task's time plus the transfer time of every input
//    edge (edges delay the unit, not the consumer's readiness, as in the original);
//  - memory tasks (graph inputs) take no unit time: they are placed just before their
//    first consumer.
// Makespan = the latest instance time.
#include <vector>

#include "sim/opt/task_graph.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::sched {

Schedule lightcode_schedule(const opt::TaskGraph& tasks, const std::vector<int>& instances);

}  // namespace lightcode::sched
