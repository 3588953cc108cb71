#pragma once
// `lightcode sweep`: every point of a scenario in its own worker process (SystemC elaborates
// once per process), N at a time. Each finished point is written at once to
// "<output>.parts/<id>.h5" (atomically), so an interrupted sweep loses no finished point;
// the results file is assembled from the parts every few seconds and at the end, in the
// scenario's point order. A failing or crashing worker is recorded as a failed point with
// its reason and the rest go on. --resume keeps the points already done (status ok in the
// results file or its parts) and runs the others; it refuses, naming what changed, a results
// file or part whose provenance (sim/sweep/provenance.hpp: the scenario text, command-line
// settings and input file digests) differs from the scenario's now, and a part that is not a
// regular file. The sweep holds "<output>.lock" (sim/core/output_lock.hpp) throughout: a
// second sweep or run on the same output is refused at once. --shard K/N runs the points
// whose index is K-1 modulo N, deterministically; `lightcode merge` combines shards.
// Fault injection for tests: LIGHTCODE_FAULT_CRASH_POINT=<id> makes that point's worker die
// of SIGKILL before it writes anything.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/input_file.hpp"
#include "sim/results/report.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

struct SweepOptions {
  int jobs = 1;
  bool resume = false;
  int shard_index = 1;  // K of K/N, 1-based
  int shard_count = 1;  // N
  std::string output;
  // What the results are computed from, recorded in them: the command-line settings
  // (`key=value`) and the files read loading the scenario and checking its inputs.
  std::vector<std::string> settings;
  std::vector<RecordedInput> inputs;
  PointOptions point;
  std::ostream* progress = nullptr;  // where progress goes (stderr); nullptr = quiet
  bool progress_bar = false;         // a live bar (terminal) rather than a line per point
};

struct SweepOutcome {
  size_t points = 0;    // in this shard
  size_t resumed = 0;   // already done, skipped
  size_t ran = 0;
  size_t failed = 0;
  double seconds = 0.0;
  std::vector<results::PointSummary> summaries;  // every point of the shard, in order
};

SweepOutcome run_sweep(const Scenario& scenario, const SweepOptions& options);

// A sweep's options as `lightcode sweep` (and the Python module) set them: every input of
// `scenario` (loaded after `mark = input_mark()`) checked and recorded, its settings with
// contention=false when `contention` is off, the output `out` or default_output(scenario),
// `jobs` workers sharing the machine's cores. Resume, shards and progress are the caller's.
SweepOptions sweep_options(const Scenario& scenario, uint64_t mark, int jobs, bool contention, const std::string& out);

// Parses "K/N" (1 <= K <= N); throws lightcode::Error otherwise.
void parse_shard(const std::string& text, int& index, int& count);

// Points of several results files as one file (sim/sweep/merge.cpp). Files of one scenario
// (shards: the same text; the same inputs where both record them) give their union by point
// id, in id order, with the scenario's provenance. Files of different scenarios merge only
// when every point has the same stage (serving studies of different hardware, say): each
// point's id is prefixed by its scenario's name ("<name>.<id>", names made unique and free of
// '/') and gains the parameter `scenario`; the file records every source's name, text and
// digest (`sources`). A path that is not a regular file (a FIFO, a directory) is refused
// without opening it. Throws lightcode::Error naming the offending file.
results::ResultsFile merge_results(const std::vector<std::string>& files);

}  // namespace lightcode::sweep
