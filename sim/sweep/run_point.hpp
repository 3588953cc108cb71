#pragma once
// One simulation point, end to end at analytical fidelity: load the model and the system,
// build the stacked graph, partition, select, expand, schedule, and fill a PointResult.
// The event-driven timing (SystemC) runs in its own process on top of this.
#include <string>

#include "sim/opt/expand.hpp"
#include "sim/results/report.hpp"
#include "sim/sched/schedule.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

struct PointRun {
  results::PointResult result;
  opt::TaskGraph tasks;      // kept for listings, traces and the event engine
  sched::Schedule schedule;  // analytical timeline
};

// Throws lightcode::Error for bad input (missing files, unsupported ops, ...).
PointRun run_point(const PointSpec& point);

// Energy and unit statistics of a timeline over a task graph (shared with the event engine).
void fill_report(const opt::TaskGraph& tasks, const sched::Schedule& schedule,
                 const hw::System& system, results::PointResult& out);

}  // namespace lightcode::sweep
