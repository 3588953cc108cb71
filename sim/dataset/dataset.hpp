#pragma once
// The runtime dataset (`lightcode dataset`, and the Python module): what the simulator measured
// for every point of a scenario (sweep axes included), as HDF5 tables for learning cost models
// (docs/DATASET.md; the schema: sim/dataset/schema.hpp, `lightcode dataset --schema`):
//   /points      one row per point, ok or failed (the status table: a failed point's reason,
//                and the others go on)
//   /graphs      one per placed graph (a generate point: one per step), with its makespan, energy,
//                placement summary, the search's lower bound and gap; /placement per unit type;
//                /alternatives the placements the search priced and kept
//   /ops         one per task of every placed graph: kind, operand shapes, dtype, unit and
//                hardware id, predicted time, energy, bytes, FLOPs, fused or not ...; /edges the
//                dependences with their transfers
//   /iterations  stage serve: one per serving iteration
//   /hardware, /hardware_parameters   every unit's every parameter, by a stable id
//   /families    each model family's split: train, validation or test (sim/dataset/split.hpp)
//   /inputs and root attributes       provenance: tool version, scenario text and digest, the
//                input files' digests, settings, fidelity, seeds, the split rule
// Records stream to the file point by point in scenario order (memory stays bounded: a chunk
// per table and the points in flight). Analytical points run on `jobs` threads in this
// process; a scenario with an event-fidelity point runs every point in worker processes,
// `jobs` at a time (SystemC elaborates once per process). The file is the same bytes for the
// same scenario, settings and inputs, whatever `jobs` is (no creation time is recorded).
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/input_file.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::dataset {

struct DatasetOptions {
  std::string out;  // the HDF5 file to write (required); written to a temporary, renamed when done
  int jobs = 1;     // points at a time: threads, or worker processes (event fidelity)
  // Families put in a split explicitly; any other family's split comes from its name's hash.
  std::vector<std::string> validation_families;
  std::vector<std::string> test_families;
  // Files read loading the scenario (inputs_read_since(input_mark()) taken before
  // load_scenario); recorded with those the points' input checks read.
  std::vector<RecordedInput> inputs;
  std::ostream* progress = nullptr;  // progress messages (stderr); nullptr: quiet
  bool progress_bar = false;         // one line rewritten in place (a terminal)
};

struct DatasetSummary {
  std::string out;
  size_t points = 0;
  size_t failed = 0;
  // Rows written per table.
  size_t graphs = 0, ops = 0, edges = 0, placement = 0, alternatives = 0, iterations = 0,
         hardware = 0, hardware_parameters = 0, families = 0;
  bool worker_processes = false;  // points ran in worker processes (an event-fidelity point)
  double seconds = 0.0;
  int64_t peak_rss_bytes = 0;  // this process's peak resident memory so far (getrusage)
};

// Checks every input, runs every point and writes the dataset. Throws lightcode::Error, before
// any point runs, for an output that cannot be written (or is locked by another writer), a
// family named for two splits, or a bad input; a point that fails does not throw (it is a
// failed /points row; DatasetSummary::failed counts them).
DatasetSummary write_dataset(const sweep::Scenario& scenario, const DatasetOptions& options);

// The same from a scenario file and `--set` overrides (as `lightcode dataset` takes them).
DatasetSummary write_dataset(const std::string& scenario_file, const std::vector<std::string>& sets,
                             DatasetOptions options);

// The schema as Markdown: docs/DATASET.md's generated section (`lightcode dataset --schema`).
std::string schema_markdown();

}  // namespace lightcode::dataset
