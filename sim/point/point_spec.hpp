#pragma once
// One simulation point, fully resolved: what its stage's reader (sim/stages) read from the
// point's config tree (the scenario's tree with the point's axis values put at their paths).
// Paths are absolute or relative to the working directory. The member defaults below are the
// scenario tables' (sim/stages/stage_rows.cpp): a test parses a minimal scenario and compares
// with a default-constructed PointSpec, so a default changed in one place only fails it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/serve/batching.hpp"
#include "sim/serve/composed_cost.hpp"
#include "sim/serve/dispatch.hpp"
#include "sim/serve/generator.hpp"
#include "sim/serve/pipeline_cost.hpp"

namespace lightcode {

// The registered stages (sim/stages/stage.hpp), parsed once from the scenario's `stage:`.
enum class Stage { prefill, decode, generate, serve };
// analytical: the list scheduler in this process; event: the SystemC engine, a process per point.
enum class Fidelity { analytical, event };
// How a serving replica prices an iteration (sim/serve: exact or composed_cost.hpp).
enum class IterationCostKind { composed, exact };

std::string_view stage_name(Stage s);
std::string_view fidelity_name(Fidelity f);
std::string_view iteration_cost_name(IterationCostKind k);
// The enum a name stands for; lightcode::Error listing the known names otherwise.
Stage parse_stage(std::string_view name);
Fidelity parse_fidelity(std::string_view name);
IterationCostKind parse_iteration_cost(std::string_view name);

namespace sweep {

// A serve point's replica: its system and its batching policy, parsed from its own keys merged
// over the scenario's. The replica `system:` names is the point's system: the point's hardware
// overrides (sweep axes <unit>.<key>) apply to it.
struct ServeReplica {
  std::string system;
  bool point_system = false;  // from `system:` (PointSpec::system, with PointSpec::overrides)
  std::shared_ptr<const serve::Batcher> batching;
};

// What a serve point reads (stage serve); empty for other stages.
struct ServePoint {
  std::vector<ServeReplica> replicas;
  bool generated = false;          // `requests` given: generated at arrival_rate_per_s
  serve::GeneratorSpec generator;  // its rate is arrival_rate_per_s (a sweepable key)
  double arrival_rate_per_s = 0.0;
  std::string trace;               // a CSV trace instead, "" for generated requests
  std::string dispatch_policy = "round_robin";
  std::shared_ptr<const serve::Dispatcher> dispatch;  // unbound (run_serving binds it)
  Time slo_ttft = Time::max(), slo_tpot = Time::max();
  IterationCostKind iteration_cost = IterationCostKind::composed;
  int64_t cost_grid_bits = serve::kDefaultGridBits;  // composed: the grids' significant bits
  serve::LayerPricing iteration_layers = serve::kDefaultLayerPricing;  // every layer, extrapolated, or by layer count
  frontend::BatchAttention attention = frontend::BatchAttention::per_sequence;  // how a batch's graph runs attention
  Time iteration_overhead, sequence_overhead;  // the engine's host time per iteration, and per sequence in it
  std::optional<double> overhead_power_w;      // the replica's power during that time; none: its static power
};

struct PointSpec {
  std::string id;  // "p0000", in point order
  std::vector<std::pair<std::string, std::string>> parameters;  // swept axes: name -> value
  std::vector<std::pair<std::string, std::string>> overrides;   // system config path -> value
  std::string model;
  std::optional<int64_t> traced_length;
  Stage stage = Stage::prefill;
  std::string logits;     // built-in models: last | all; "" = the profile's default
  int64_t precision = 0;  // bits every matrix product requires (sim/ir/precision.hpp); 0: none
  bool dtype_precision = false;  // every matrix product requires its dtype's bits (require_dtype_bits)
  int64_t sequence_length = 0;
  int64_t new_tokens = 0;
  // Built-in models: the devices one point spans (frontend/models/parallelism.hpp).
  int64_t tensor_parallel = 1;
  int64_t pipeline_parallel = 1;
  int64_t pipeline_stage = 0;  // the stage plan_point builds (the graph stage's runner sets it)
  std::string system;
  std::string objective = "time";
  std::string profile = "default";
  std::string scheduler;  // a registered scheduling policy; "" = the profile's default
  Fidelity fidelity = Fidelity::event;
  bool pareto = false;  // write the joint search's Pareto front
  int64_t placement_evaluations = joint::kDefaultEvaluations;  // the joint search's budget
  // Stages serve and generate: the joint search's placements reused by representative or not.
  serve::PlacementReuseMode placement_reuse = serve::kDefaultPlacementReuse;
  ServePoint serve;     // stage serve
};

}  // namespace sweep
}  // namespace lightcode
