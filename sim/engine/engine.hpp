#pragma once
// Final timing on the SystemC event kernel. Modules are elaborated from the system: CPU cores,
// the GPU's GPC > TPC > SM hierarchy with its block scheduler, PHU cores with DAC and ADC,
// SRAM, HBM, the start pseudo-unit, and one channel per link direction. The scheduling policy
// decides every start, fed with the same facts as by the analytical scheduler (a task's inputs
// have arrived, a task has finished), so with contention off the two timelines are equal to
// the picosecond. With contention on,
// transfers cross the route's link channels one at a time and queue behind each other.
// Service times come from the same cost models the selector used (estimate(), GPU plans).
// SRAM and HBM occupancy is tracked over time; an SRAM overflow is an error, or spills the
// tensor to HBM when asked. Energy adds compute, transfers, DAC/ADC conversion and static
// power x makespan per unit. What it measured comes back as the engine's own plain types
// (event_result.hpp); the engine depends on no layer above it.
// SystemC elaborates once per process: simulate() may be called once; a second call throws.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/engine/event_result.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::engine {

struct EngineOptions {
  bool contention = true;    // false: transfers take their model time, no queueing
  bool spill_sram = false;   // true: an SRAM overflow spills to HBM instead of failing
  std::string vcd_path;      // "" = no waveform; else unit busy signals to this VCD file
  bool record_transfers = false;  // keep every transfer's timing (for traces)
};

// `policy` decides every start, exactly as it does for sched::schedule().
EventResult simulate(const opt::TaskGraph& tasks, const hw::System& system, const EngineOptions& options,
                     const sched::SchedulingPolicy& policy);

}  // namespace lightcode::engine
