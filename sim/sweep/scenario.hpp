#pragma once
// A scenario (scenarios/*.yaml): what to simulate and where to write it.
//   name: seed_table
//   model: gpt2                      built-in name, or a TVM graph JSON path (relative to the
//                                    scenario file); `traced_length: 5` overrides detection
//   stage: prefill                   prefill | decode | generate | serve
//   sequence_length: 150             prefill tokens; the KV-cache length for decode; the
//                                    prompt length for generate
//   new_tokens: 32                   generate: tokens produced after the prompt
//   system: ../configs/systems/cpu.yaml
//   objective: time                  time | energy | edp
//   profile: lightcode               lightcode | default
//   scheduler: list                  a registered scheduling policy (`lightcode list schedulers`);
//                                    default: the profile's (list | lightcode)
//   fidelity: event                  event (SystemC, default) | analytical
//   output: ../results/seed_table.h5
//   sweep:                           axes; points are the cartesian product, first axis
//     system: [a.yaml, b.yaml]       outermost. An axis is a scenario key above, or a path
//     sequence_length: {start: 128, stop: 1024, step: 128}     into the point's system:
//     phu.cores: {start: 1, stop: 64, factor: 2}               <unit>.<key>[.<key>...]
//     zip:                           axes that advance together (equal lengths)
//       phu.cores: [1, 2, 4]
//       phu.multiplex: [64, 32, 16]
// Stage serve (a request stream on replicas; sim/serve) reads instead of system and
// sequence_length:
//   replicas: [{system: a.yaml}, {system: b.yaml, max_batch: 16}]
//   batching: {policy: continuous, max_batch: 32, token_budget: 512}
//   requests: {count: 2000, arrival: poisson, seed: 1,
//              prompt: {distribution: lognormal, median: 256, sigma: 1, min: 8, max: 2048},
//              output: {distribution: uniform, min: 16, max: 256}}     (or trace: file.csv)
//   arrival_rate: 20 req/s           dispatch: prompt_length      dispatch_table: xo.yaml
//   slo: {ttft: 1 s, tpot: 100 ms}   iteration_cost: composed     cost_grid_bits: 3
// Ranges are inclusive; `factor` makes them geometric. The keys are declared in
// sim/sweep/tables.hpp (scenario_table, sweep_range_table). Unknown keys, unknown axis paths,
// empty axes, zip axes of different lengths and values no point reads (new_tokens without a
// generate point, traced_length without a TVM graph model) are errors naming file, line and
// key. A file value that an axis of the same key replaces counts as read when the key is.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/core/quantity.hpp"
#include "sim/serve/batching.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::sweep {

// A serve point's replica: its system file and the batching keys it sets itself.
struct ServeReplica {
  std::string system;
  std::optional<std::string> policy;
  std::optional<int64_t> max_batch, token_budget;
  std::optional<Time> timeout;
};

// What a serve point reads (stage serve); empty for other stages.
struct ServePoint {
  std::vector<ServeReplica> replicas;
  serve::BatchingSpec batching;     // the scenario's; a replica's own keys override it
  bool generated = false;           // `requests` given: generated at arrival_rate_per_s
  serve::GeneratorSpec generator;   // its rate is arrival_rate_per_s (a sweepable key)
  double arrival_rate_per_s = 0.0;
  std::string trace;                // a CSV trace instead, "" for generated requests
  std::string dispatch = "round_robin";
  std::string dispatch_table;       // prompt_length: the crossover's dispatch table
  std::string dispatch_objective;   // "" = the point's objective
  Time slo_ttft = Time::max(), slo_tpot = Time::max();
  std::string iteration_cost = "composed";  // composed | exact
  int64_t cost_grid_bits = 3;               // composed: the grids' significant bits

  // Replica i's batching: the scenario's, with the replica's own keys.
  serve::BatchingSpec batching_of(size_t replica) const;
};

// One simulation point, fully resolved (paths absolute or relative to the working directory).
struct PointSpec {
  std::string id;  // "p0000", in point order
  std::vector<std::pair<std::string, std::string>> parameters;  // swept axes: name -> value
  std::vector<std::pair<std::string, std::string>> overrides;   // system config path -> value
  std::string model;
  std::optional<int64_t> traced_length;
  std::string stage = "prefill";
  std::string logits;  // built-in models: last | all; "" = the profile's default
  int64_t precision = 0;  // bits every matrix product requires (sim/ir/precision.hpp); 0: none
  int64_t sequence_length = 0;
  int64_t new_tokens = 0;
  std::string system;
  std::string objective = "time";
  std::string profile = "default";
  std::string scheduler;  // a registered scheduling policy; "" = the profile's default
  std::string fidelity = "event";
  bool pareto = false;                 // write the joint search's Pareto front
  int64_t placement_evaluations = 64;  // the joint search's budget (sim/joint)
  ServePoint serve;                    // stage serve
};

struct Scenario {
  std::string name;
  std::string file;
  std::string text;    // the YAML as read, stored in results files
  std::string output;  // results file path ("" = results/<name>.h5)
  std::vector<PointSpec> points;
};

// Reads the file through read_input_file (limits::kConfigFileBytes). Sweep ranges, the point
// count, sequence lengths and new_tokens are checked against sim/core/limits.hpp before any
// point is made.
Scenario load_scenario(const std::string& path);
// The same from text: `path` names it in errors, relative paths resolve against `dir`.
Scenario parse_scenario(std::string_view text, const std::string& path, const std::string& dir);
// Resolves `value` of scenario key `key` as the point field, validating it against the
// scenario table and the registries (crossover scenarios and tests use this too). The values
// a nested table's reader reads (stage serve's tables) are recorded in `nested_reads` when
// given; without it, a nested key nothing reads is an error here.
void set_point_field(PointSpec& point, const std::string& key, const ConfigNode& value,
                     const std::string& scenario_dir, ConfigUsage* nested_reads = nullptr);
// The point's system config with its overrides applied.
ConfigNode system_config(const PointSpec& point);

}  // namespace lightcode::sweep
