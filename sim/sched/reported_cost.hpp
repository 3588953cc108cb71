#pragma once
// The figures a point reports for a timed task graph: its makespan, and its total energy =
// every task's energy and every input transfer's, in task order, then static power x makespan
// per unit type (hw::static_energy_pj, or the engine's figures when given), summed in that
// order. The report (sim/sweep/run_point.cpp) prints exactly this total, and the joint
// placement search (sim/joint) scores every placement it tries with it, so an objective is
// the metric the report charges.
#include <vector>

#include "hw_models/system.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::sched {

struct ReportedCost {
  Time makespan;
  double dynamic_pj = 0.0;  // tasks and transfers
  double static_pj = 0.0;   // static power x makespan, every unit
  double energy_pj = 0.0;   // the report's total
};

// `static_pj` per unit type (the event engine's); null: hw::static_energy_pj at the makespan.
// Throws lightcode::Error when an energy cannot be represented.
ReportedCost reported_cost(const opt::TaskGraph& graph, const Schedule& schedule,
                           const hw::System& system,
                           const std::vector<double>* static_pj = nullptr);

// Several devices (a tensor-parallel group, pipeline stages): the simulated device's share of
// the figures above that every other device of the group spends too: the dynamic energy of
// the tasks on units one per device (hw::System::per_device: a GPU, its HBM) and of the
// transfers to or from them, in pJ; and those units' static power, in W. Shared units (the
// host, the interconnect, whose collectives are priced for the whole group) count once.
double device_dynamic_pj(const opt::TaskGraph& graph, const hw::System& system);
double device_static_watts(const hw::System& system);

}  // namespace lightcode::sched
