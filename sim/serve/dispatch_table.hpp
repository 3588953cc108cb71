#pragma once
// Reading a dispatch table back: the YAML or JSON file `lightcode crossover` writes
// (sim/sweep/crossover.hpp, (4)), as a runtime routing prompts by length would load it.
// Strict: unknown keys, ranges that are not ordered, contiguous and inside `lengths`, a range
// naming a system not listed under `systems`, a non-finite metric, and curves whose lists
// disagree in length are lightcode::Error naming file, line and key. The file is read through
// read_input_file (limits::kConfigFileBytes); JSON is read as the YAML it also is.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lightcode::serve {

struct DispatchRule {
  int64_t from = 0, to = 0;  // inclusive prompt lengths
  std::string system;        // the system's name
  std::string file;          // its system file, as written
  double metric_from = 0.0, metric_to = 0.0;
};

struct DispatchObjective {
  std::string objective;  // time | energy | edp
  std::string unit;       // s | pJ | s*pJ
  std::vector<DispatchRule> rules;
  std::vector<int64_t> curve_lengths;             // what the search evaluated (may be empty)
  std::vector<std::vector<double>> curve_metrics; // [system][length]
};

struct LoadedDispatchTable {
  std::string name, model, stage, profile;
  int64_t start = 1, stop = 1;
  std::vector<std::string> systems;  // names, in file order
  std::vector<DispatchObjective> objectives;

  // The rule for a prompt of `length` tokens under `objective`; lightcode::Error when the
  // objective is not in the table or the length lies outside [start, stop].
  const DispatchRule& route(const std::string& objective, int64_t length) const;
};

LoadedDispatchTable load_dispatch_table(const std::string& path);
LoadedDispatchTable parse_dispatch_table(std::string_view text, const std::string& path);

}  // namespace lightcode::serve
