#pragma once
// A scenario (scenarios/*.yaml): what to simulate and where to write it.
//   name: seed_table
//   model: gpt2                      built-in name, or a TVM graph JSON path (relative to the
//                                    scenario file)
//   stage: prefill                   a registered stage: prefill | decode | generate | serve
//   system: ../configs/systems/cpu.yaml
//   sequence_length: 150             ... and the keys of the stage (sim/stages/*)
//   objective: time                  time | energy | edp
//   profile: lightcode               lightcode | default
//   output: ../results/seed_table.h5
//   sweep:                           axes; points are the cartesian product, first axis
//     system: [a.yaml, b.yaml]       outermost. An axis is a scenario key (a dotted path into
//     sequence_length: {start: 128, stop: 1024, step: 128}     its mappings: batching.max_batch;
//     phu.cores: {start: 1, stop: 64, factor: 2}                 a whole value: replicas), or a
//     zip:                                                       path into the point's system,
//       phu.cores: [1, 2, 4]                                     <unit>.<key>[.<key>...]
//       phu.multiplex: [64, 32, 16]  (zip: axes that advance together, equal lengths)
// A point is the scenario's config tree with its axis values put at their paths, read once by
// its stage's reader (sim/stages/stage.hpp) through Params. Command-line overrides
// (`--set key=value`, value in YAML) are put into the scenario's tree the same way before
// anything is read, so a `--set` is exactly an edit of the file. Whether a key was read is
// decided by ConfigUsage over every point: a key or axis value no point read is an error naming
// file, line and key and saying who would read it. Ranges are inclusive; `factor` makes them
// geometric. Unknown keys, unknown axis paths, empty axes and zip axes of different lengths
// are errors at their place.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/point/point_spec.hpp"

namespace lightcode::sweep {

struct Scenario {
  std::string name;
  std::string file;
  std::string text;                // the YAML as read, stored in results files
  std::vector<std::string> sets;   // the command-line overrides, "key=value", in order
  std::string output;              // results file path ("" = results/<name>.h5)
  std::vector<PointSpec> points;
};

// Reads the file through read_input_file (limits::kConfigFileBytes) and applies `sets`
// ("key=value", the value YAML: `--set replicas=[{system: a.yaml}]`; relative paths in a value
// are relative to the working directory). Sweep ranges and the point count are checked against
// sim/core/limits.hpp before any point is made. A crossover study given here says to use
// `lightcode crossover`.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets = {});
// The same from text: `path` names it in errors, relative paths resolve against `dir`.
Scenario parse_scenario(std::string_view text, const std::string& path, const std::string& dir,
                        const std::vector<std::string>& sets = {});

// The table of every scenario key: the common ones and each registered stage's
// (docs/CONFIG.md, unknown-key checks).
const ParamTable& scenario_table();
// A sweep axis given as a range {start, stop, step | factor}.
const ParamTable& sweep_range_table();

}  // namespace lightcode::sweep
