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
//
// Streams: a Session elaborates the system once and runs task graphs one after another on it
// (generation: prefill, then one decode step per token). Graph k+1 starts at graph k's start
// plus its makespan: the instant its last task finished (a barrier: nothing of k+1 overlaps
// k), or later where the policy's complete() puts the makespan later (the lightcode policy's
// graph inputs, loaded before time 0, shift its timeline). Each run() returns
// that graph's EventResult with the contract of simulate()'s: its times relative to its own
// start (EventResult::start, absolute), its static energy over its own makespan, and only its
// own link statistics, conversion time and memory samples. The hardware is idle between
// graphs and every graph gets fresh bookkeeping, so a graph gives the same result whichever
// graphs ran before it.
// SystemC elaborates once per process: one Session (or simulate() call) per process; a second
// one throws.
#include <cstdint>
#include <memory>
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

// `system` and `policy` must outlive the session; `policy` decides every start, exactly as it
// does for sched::schedule(). A VCD waveform, when asked, covers every graph run (absolute
// times) and is put in place by close() (it is written to a temporary until then).
class Session {
 public:
  Session(const hw::System& system, const EngineOptions& options,
          const sched::SchedulingPolicy& policy);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs `tasks` (which need live only during the call) from now() until its last task has
  // finished. Throws lightcode::Error for what stops a run (an SRAM overflow, a time past the
  // int64 limit, tasks that never become ready); the session cannot run again after that,
  // nor after close().
  EventResult run(const opt::TaskGraph& tasks);
  // Absolute simulated time where the next graph starts: the last one's start + its makespan
  // (0 before the first).
  Time now() const;
  // Ends the session: closes the waveform and puts it in place (throws lightcode::Error when
  // that fails). A session destroyed without close() leaves no waveform.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One graph on a session of its own.
EventResult simulate(const opt::TaskGraph& tasks, const hw::System& system, const EngineOptions& options,
                     const sched::SchedulingPolicy& policy);

// Every graph of `iterations`, in order, on one session: one result per graph.
std::vector<EventResult> simulate_stream(const std::vector<const opt::TaskGraph*>& iterations,
                                         const hw::System& system, const EngineOptions& options,
                                         const sched::SchedulingPolicy& policy);

}  // namespace lightcode::engine
