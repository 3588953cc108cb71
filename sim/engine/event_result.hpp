#pragma once
// What the event engine measured, as plain data: the timeline, per link channel statistics,
// memory occupancy over time and, when asked, every transfer's timing. The engine's own types,
// so that it depends on no layer above it; sim/sweep turns them into report rows (results).
// Times are Time (integer picoseconds); energies are picojoules. A result is one task graph's
// (one iteration of a stream, engine.hpp): its times count from `start`, the absolute
// simulated time the graph began (0 for simulate()), and its statistics are its own.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::engine {

// One direction of a link, over one graph's run.
struct ChannelStats {
  std::string name;          // "sram->cpu"
  Time busy;                 // sum of the occupancies of the transfers it carried
  Time queue_delay;          // sum of the time transfers waited for it
  int64_t transfers = 0;
  int64_t bytes = 0;
  double energy_pj = 0.0;    // the transfer model's energy, spread over the channels crossed
};

// SRAM and HBM occupancy from `time` on (one sample per instant that changed it).
struct MemorySample {
  Time time;
  int64_t sram_bytes = 0;
  int64_t hbm_bytes = 0;
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
  Time start;                                      // absolute; every other time is relative to it
  sched::Schedule schedule;
  std::vector<ChannelStats> links;                 // one per channel
  std::vector<MemorySample> memory;                // occupancy after every change
  std::vector<TransferRecord> transfers;
  std::vector<double> static_energy_pj;            // per unit type, all instances, over the makespan
  std::vector<Time> conversion;                    // per unit type: conversion-bound busy time
  double elaborate_seconds = 0.0;  // wall time building the modules; 0 after a stream's first graph
  double run_seconds = 0.0;        // wall time of the kernel run, sc_start (informational)
  int64_t sram_spills = 0;
  int64_t sram_peak_bytes = 0;
  int64_t hbm_peak_bytes = 0;
};

}  // namespace lightcode::engine
