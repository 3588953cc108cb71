#pragma once
// One simulation point, end to end: load the model and the system, build the stacked graph,
// partition, select, expand, schedule analytically, and, at event fidelity, time the tasks on
// the SystemC engine (which runs once per process: run_point_in_child() gives each point its
// own). Fills a PointResult; with both fidelities run, the summary carries both makespans.
// A generate point (sim/sweep/run_generation.hpp) runs every step's graph in the same way.
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/engine/engine.hpp"
#include "sim/opt/expand.hpp"
#include "sim/results/report.hpp"
#include "sim/results/trace.hpp"
#include "sim/sched/schedule.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

struct PointRun {
  results::PointResult result;
  opt::TaskGraph tasks;      // kept for listings, traces and the event engine
  sched::Schedule schedule;  // analytical timeline
};

struct PointOptions {
  engine::EngineOptions engine;  // event fidelity only
  std::string trace_path;        // "" = none; Perfetto / Chrome JSON of the timeline
};

// Throws lightcode::Error for bad input (missing files, unsupported ops, ...). A point of
// stage generate runs through run_generation() (sim/sweep/run_generation.hpp).
PointRun run_point(const PointSpec& point, const PointOptions& options = {});

// The analytical part of a prefill or decode point: its graph placed, expanded and scheduled
// analytically, and the summary's fields that follow from that (parameters, system, counts,
// placement search, analytical makespan; fidelity "analytical"), with no report rows yet and
// nothing timed on the engine. run_point() reports it or times it on the engine; generation
// plans one per step. `policy` points into the registry.
struct PlannedPoint {
  PointRun run;
  hw::System system;
  const sched::SchedulingPolicy* policy = nullptr;
};
PlannedPoint plan_point(const PointSpec& point);

// The engine options a point's event run uses: options.engine, recording every transfer when
// a trace is asked for.
engine::EngineOptions event_options(const PointOptions& options);
// The transfers the engine recorded, as trace rows at absolute times (event.start added).
std::vector<results::TraceTransfer> trace_transfers(const engine::EventResult& event);

// The graph and the system a prefill or decode point runs: its model request (stage, length,
// logits, precision) and its system with the sweep's overrides, under its profile.
struct PointInputs {
  ir::Graph graph;
  hw::System system;
};
PointInputs point_inputs(const PointSpec& point);

// The same in a forked child process (SystemC elaborates once per process): the child writes
// its result to a temporary results file the parent reads back. A failing or crashing child
// gives a point with status "failed" and the reason; this never throws for the point's sake.
results::PointResult run_point_in_child(const PointSpec& point, const PointOptions& options = {});

// Energy and unit statistics of a timeline over a task graph; `event` adds what only the
// engine knows (links, memory profile, static power, conversion energy).
void fill_report(const opt::TaskGraph& tasks, const sched::Schedule& schedule,
                 const hw::System& system, results::PointResult& out,
                 const engine::EventResult* event = nullptr);

}  // namespace lightcode::sweep

namespace lightcode::sweep {

// A point that did not run: its parameters, status "failed" and the reason.
results::PointResult failed_point(const PointSpec& point, const std::string& error);

// Worker processes, shared by run_point_in_child and sweeps. start_point_worker forks a
// process that runs `point` and writes it alone to the results file `path` (`header` with the
// point: the scenario's text and provenance, sim/sweep/provenance.hpp), then exits: 0 when
// the point ran, kPointFailedExit when it failed (the file says why). The worker dies with its
// parent. Fault injection for tests: LIGHTCODE_FAULT_CRASH_POINT=<id> makes that point's
// worker die of SIGKILL before it writes anything. Throws when fork fails.
inline constexpr int kPointFailedExit = 10;
int start_point_worker(const PointSpec& point, const PointOptions& options, const std::string& path,
                       const results::ResultsFile& header);
// What a finished worker (its waitpid status) left at `path`. A point that ran is read back
// only when `read_ok` (else an ok summary with its id is returned); a worker that died
// without a result gives a failed point saying how, which is also written to `path`.
results::PointResult collect_point_worker(const PointSpec& point, int wait_status, const std::string& path,
                                          const results::ResultsFile& header, bool read_ok);

}  // namespace lightcode::sweep
