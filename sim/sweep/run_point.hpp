#pragma once
// Points in worker processes: SystemC elaborates once per process, so every event-fidelity
// point (and, in a sweep, every point) runs in a forked child, which writes its result to a
// temporary results file the parent reads back. run_point (sim/stages/stage.hpp) runs a point
// in this process.
#include <string>

#include "sim/point/pipeline.hpp"
#include "sim/results/report.hpp"
#include "sim/stages/stage.hpp"

namespace lightcode::sweep {

// The same as run_point in a forked child process. A failing or crashing child gives a point
// with status failed and the reason; this never throws for the point's sake.
results::PointResult run_point_in_child(const PointSpec& point, const PointOptions& options = {});

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
