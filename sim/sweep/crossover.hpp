#pragma once
// The crossover study: at which sequence lengths does the best system (CPU, CPU/PHU, GPU, ...)
// for a model change? The answer is a dispatch table a runtime can use to route prompts by
// length, plus per-op photonic thresholds for one system (sim/opt/threshold.hpp).
//
// (1) find_crossovers: a generic search over an integer range [lo, hi] for k >= 2 options with
//     a cost(option, length) -> double (lower is better). Every option is evaluated on a
//     coarse geometric grid (opt::geometric_grid: lo, hi and ~20 lengths between); inside each
//     grid bracket whose ends have different winners, integer bisection (recursing into both
//     halves when three options meet in one bracket) pins each switch to two adjacent lengths.
//     Evaluations are memoised. Ties go to the lower option index, so a switch means "strictly
//     cheaper". Limitation: a switch and a switch back inside one coarse bracket (both ends
//     won by the same option) are not seen; a finer grid (grid_points) narrows the brackets.
// (2) load_crossover / parse_crossover: the scenario (scenarios/crossover.yaml), strict:
//       name: crossover
//       model: gpt2                  built-in name or TVM graph JSON (relative to the file)
//       stage: prefill               prefill | decode
//       traced_length: 5             optional, TVM files
//       profile: lightcode           lightcode | default
//       systems: [../configs/systems/cpu.yaml, ...]   >= 2, relative to the scenario file
//       objectives: [time, energy]   time | energy | edp
//       lengths: {start: 1, stop: 4096}
//       thresholds: {system: ../configs/systems/cpu_phu.yaml}   optional; absent = none
//       output: ../results/crossover  optional base path: <base>.yaml and <base>.json
//     The keys are declared in sim/sweep/tables.hpp (crossover_table). Unknown keys, bad
//     values and keys nothing reads (traced_length with a built-in model) are errors naming
//     file, line and key.
// (3) run_crossover: per objective, cost = the point's makespan (time, ps), energy (pJ) or
//     their product (edp, ps * pJ) from sweep::run_point at analytical fidelity, with the
//     placement optimised for that objective.
// (4) dispatch_yaml / dispatch_json: the table per objective (ordered length ranges -> system
//     name and file, with the winner's metric at both ends: time in s, energy in pJ, edp in
//     s * pJ), the curves the search evaluated (`curves: {<objective>: {unit, lengths,
//     systems: {<name>: [metric per length]}}}`, so plots show what was computed, not an
//     interpolation) and the threshold groups. sim/serve/dispatch_table.hpp reads them back.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/point/point_spec.hpp"
#include "sim/opt/threshold.hpp"

namespace lightcode::sweep {

// ---- (1) the generic search ----
struct Segment {
  int64_t from = 0, to = 0;  // inclusive
  int best = 0;              // option index
  double cost_from = 0.0, cost_to = 0.0;  // the winner's cost at both ends
};

struct CrossoverSearch {
  std::vector<Segment> segments;  // ordered, covering [lo, hi]
  // Every evaluation, by length ascending: (length, cost of each option). What a plot of the
  // search draws, and all it may draw: nothing between these lengths was computed.
  std::vector<std::pair<int64_t, std::vector<double>>> evaluated;
  size_t evaluations = 0;         // cost() calls (distinct (option, length) pairs)
  size_t lengths_probed = 0;      // distinct lengths (each evaluates every option)
};

using CostFunction = std::function<double(int option, int64_t length)>;

// Throws lightcode::Error for fewer than two options or an empty/inverted range.
CrossoverSearch find_crossovers(int options, int64_t lo, int64_t hi, const CostFunction& cost,
                                int grid_points = 20);

// ---- (2) the scenario ----
struct CrossoverScenario {
  std::string name;
  std::string file;
  std::string text;  // the YAML as read
  std::string model;
  std::optional<int64_t> traced_length;
  Stage stage = Stage::prefill;
  std::string logits;  // "" = the profile's default
  int64_t precision = 0;  // as PointSpec::precision
  std::string profile = "default";
  std::vector<std::string> systems;     // resolved paths
  std::vector<std::string> objectives;  // time | energy | edp, in file order
  int64_t start = 1, stop = 1;
  std::string threshold_system;  // resolved path; "" = no per-op thresholds
  std::string output;            // resolved base path; "" = <out-dir>/<name>
};

CrossoverScenario load_crossover(const std::string& path);
// The same from text: `file` names it in errors, paths resolve against `dir`.
CrossoverScenario parse_crossover(std::string_view text, const std::string& file, const std::string& dir);
// Checks a range (scenario or --range override): 1 <= lo <= hi.
void check_range(int64_t lo, int64_t hi);

// ---- (3) running it ----
struct DispatchRange {
  int64_t from = 0, to = 0;
  int system = 0;                               // index into CrossoverResult::systems
  double metric_from = 0.0, metric_to = 0.0;    // s, pJ or s * pJ (see metric_unit)
};

struct DispatchTable {
  std::string objective;
  std::vector<DispatchRange> ranges;
  std::vector<int64_t> curve_lengths;             // every probed length, ascending
  std::vector<std::vector<double>> curve_metrics; // [system][length], in metric_unit
  size_t evaluations = 0;     // run_point calls
  size_t lengths_probed = 0;
  double seconds = 0.0;       // wall time of the search
};

struct SystemRef {
  std::string name;
  std::string file;
};

struct CrossoverResult {
  CrossoverScenario scenario;
  std::vector<SystemRef> systems;
  std::vector<DispatchTable> tables;               // one per objective
  std::optional<SystemRef> threshold_system;
  std::vector<opt::ThresholdReport> thresholds;    // one per objective, when requested
};

// The cost of one point for an objective (what find_crossovers minimises).
double point_cost(const CrossoverScenario& s, const std::string& system, const std::string& objective,
                  int64_t length);
// The threshold search's graph builder for the scenario's model (frontend::load_model).
opt::GraphAtLength scenario_graphs(const CrossoverScenario& s);
CrossoverResult run_crossover(const CrossoverScenario& s, int grid_points = 20);

// ---- (4) output ----
std::string_view metric_unit(const std::string& objective);  // "s", "pJ", "s*pJ"
std::string dispatch_yaml(const CrossoverResult& r);
std::string dispatch_json(const CrossoverResult& r);

}  // namespace lightcode::sweep
