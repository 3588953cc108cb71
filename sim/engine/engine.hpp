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
// power x makespan per unit.
// SystemC elaborates once per process: simulate() may be called once; a second call throws.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/results/report.hpp"
#include "sim/sched/policy.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::engine {

struct EngineOptions {
  bool contention = true;    // false: transfers take their model time, no queueing
  bool spill_sram = false;   // true: an SRAM overflow spills to HBM instead of failing
  std::string vcd_path;      // "" = no waveform; else unit busy signals to this VCD file
  bool record_transfers = false;  // keep every transfer's timing (for traces)
};

struct TransferRecord {
  int32_t producer = 0;
  int32_t consumer = 0;
  std::string channel;       // "sram->cpu" (hops joined by ","), or "route" when contention is off
  Time start;
  Time end;
  int64_t bytes = 0;
};

struct EventResult {
  sched::Schedule schedule;
  std::vector<results::UnitRecord> links;          // one per channel, kind "link"
  std::vector<results::MemorySample> memory;       // occupancy after every change
  std::vector<TransferRecord> transfers;
  std::vector<double> static_energy_pj;            // per unit type, all instances
  std::vector<Time> conversion;                    // per unit type: conversion-bound busy time
  double elaborate_seconds = 0.0;  // wall time building the modules (informational)
  double run_seconds = 0.0;        // wall time of the kernel run, sc_start (informational)
  int64_t sram_spills = 0;
  int64_t sram_peak_bytes = 0;
  int64_t hbm_peak_bytes = 0;
};

// `policy` decides every start, exactly as it does for sched::schedule().
EventResult simulate(const opt::TaskGraph& tasks, const hw::System& system, const EngineOptions& options,
                     const sched::SchedulingPolicy& policy);

}  // namespace lightcode::engine
