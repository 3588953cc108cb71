#pragma once
// A scenario's points run in turn and written to one results file: what `lightcode run` does
// and what the Python module's lightcode.run() calls. An analytical point runs in this
// process; an event-fidelity point in a worker process of its own (SystemC elaborates once
// per process: run_point_in_child). Every input is read and every output checked before the
// first point runs; the output is locked for the run (sim/core/output_lock.hpp); the file
// records what the points were computed from (sim/sweep/provenance.hpp). A failing point is
// kept as a failed row with its reason and the others go on.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/results/report.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

struct ScenarioRunOptions {
  std::string out;                   // results file; "" = the scenario's `output:` or results/<name>.h5
  std::vector<std::string> settings; // recorded beside the scenario's own `--set`s (contention=false, ...)
  std::vector<std::string> extra_outputs;  // other files the caller writes (listing, traces): checked with `out`
  PointOptions point;                // every point's options (engine, threads, ...)
  std::string trace;                 // per point "<stem>.<id><ext>" when several ("" = none)
  std::string vcd;                   // event fidelity only; ".vcd" appended when missing
  // Called after each point, with its index and result (progress, listings); may be empty.
  std::function<void(size_t index, const results::PointResult&, double seconds)> on_point;
};

struct ScenarioRun {
  std::string out;                            // the results file written
  std::vector<results::PointSummary> summaries;  // every point's, in scenario order
  int failed = 0;
};

// The results file a run of `scenario` writes when no --out is given.
std::string default_output(const Scenario& scenario);
// A per-point file name: `path` itself for one point, else "<stem>.<id><ext>".
std::string per_point_path(const std::string& path, const std::string& id, size_t points);

// Runs every point of `scenario` (loaded after `mark = input_mark()`, so the inputs read since
// are its provenance) and writes the results file. Throws lightcode::Error, before any point
// runs, for an output that cannot be written or a --vcd/--trace that a point cannot have.
ScenarioRun run_scenario(const Scenario& scenario, uint64_t mark, const ScenarioRunOptions& options);

}  // namespace lightcode::sweep
