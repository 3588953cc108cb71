#include "sim/stages/stage_rows.hpp"

#include <filesystem>
#include <map>
#include <utility>

#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/opt/objective.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::sweep::rows {
namespace {

namespace fs = std::filesystem;

std::string resolve(const ConfigNode& value) {
  const fs::path p(value.as_string());
  return p.is_absolute() ? p.string() : (fs::path(value.base_dir()) / p).lexically_normal().string();
}

// The value's text, once `lookup` (a registry's lookup by name) accepts it; its error is
// placed at the value.
template <class Lookup>
std::string registered(const ConfigNode& value, const Lookup& lookup) {
  const std::string name = value.as_string();
  try {
    lookup(name);
  } catch (const Error& e) {
    value.fail(e.what());
  }
  return name;
}

}  // namespace

const Param& model() {
  static const Param p = Param::text("model").required().doc(
      "a built-in model (configs/models/) or a TVM graph JSON file; here or as a sweep axis");
  return p;
}
const Param& traced_length() {
  static const Param p = Param::count("traced_length", limits::kSequenceLength)
                             .read_when("a TVM or ONNX graph file for model")
                             .doc("TVM graph files (and ONNX files without a symbolic sequence axis) only: the length the graph was traced at (default: detected)");
  return p;
}
const Param& stage() {
  static const Param p =
      Param::choice("stage", {"prefill", "decode", "generate", "serve"})
          .fallback("prefill")
          .doc("a registered stage (`lightcode list stages`): prefill a prompt, decode one token against a KV "
               "cache, generate new_tokens after a prompt, or serve a stream of requests on replicas");
  return p;
}
const Param& logits() {
  static const Param p =
      Param::choice("logits", {"last", "all"})
          .read_when("a built-in model")
          .doc("built-in models only: project the last prompt token's hidden state to logits (what generation "
               "needs), or every token's (TVM's traced graph); default: last, all under the lightcode profile "
               "(the original's graphs)");
  return p;
}
const Param& precision() {
  static const Param p =
      Param::count("precision", limits::kPrecisionBits)
          .read_when("a system with a unit that models precision (a photonic core built from devices)")
          .doc("bits every matrix product requires (its operands' precision): a photonic core built from devices "
               "runs it at these bits, and refuses it above its own; default: an integer dtype's bits (int8: 8), "
               "else the unit's own precision. The system must have a unit that models precision");
  return p;
}
const Param& dtype_precision() {
  static const Param p =
      Param::boolean("dtype_precision")
          .fallback("false")
          .read_when("a system with a unit that models precision (a photonic core built from devices)")
          .doc("every matrix product requires the bits its dtype holds (bfloat16 and float16: 16, int8: 8, "
               "float32: 24, the most a product may require): a photonic core narrower than that refuses it, "
               "so no product runs at reduced precision unnoticed; instead of `precision`");
  return p;
}
const Param& sequence_length() {
  static const Param p = Param::count("sequence_length", limits::kSequenceLength)
                             .required()
                             .doc("prefill tokens, the KV-cache length (decode) or the prompt (generate)");
  return p;
}
const Param& new_tokens() {
  static const Param p = Param::count("new_tokens", limits::kNewTokens)
                             .required()
                             .doc("tokens produced after the prompt");
  return p;
}
const Param& system() {
  static const Param p = Param::text("system").doc(
      "a configs/systems/*.yaml file (relative to the file that names it); required by prefill, decode and "
      "generate; serve: one replica of it when `replicas` is absent");
  return p;
}
const Param& objective() {
  static const Param p = Param::text("objective").fallback("time").doc(
      "what placement minimises: a registered objective (time, energy, edp)");
  return p;
}
const Param& profile() {
  static const Param p = Param::text("profile").fallback("default").doc(
      "a registered profile: default, or lightcode (the original's arithmetic)");
  return p;
}
const Param& scheduler() {
  static const Param p = Param::text("scheduler").doc(
      "a registered scheduling policy (`lightcode list schedulers`); default: the profile's");
  return p;
}
const Param& fidelity() {
  static const Param p = Param::choice("fidelity", {"analytical", "event"})
                             .fallback("event")
                             .doc("the analytical timeline, or the SystemC event engine");
  return p;
}
const Param& pareto() {
  static const Param p = Param::boolean("pareto")
                             .fallback("false")
                             .read_when("a profile that places with the schedule (default)")
                             .doc("write the joint placement search's non-dominated (makespan, energy) placements "
                                  "as the point's `pareto` table (profiles that place with the schedule)");
  return p;
}
const Param& tensor_parallel() {
  static const Param p =
      Param::count("tensor_parallel", limits::kParallelDegree)
          .fallback("1")
          .read_when("a built-in model")
          .doc("devices a tensor-parallel group splits each layer over, as Megatron-LM does "
               "(frontend/models/parallelism.hpp): llama-family models; the point runs rank 0's share and "
               "its collectives on the system's interconnect, and reports every device's energy; stage serve: "
               "every replica is such a group (its KV capacity the devices' memories summed, its energy every "
               "device's); the system must have that many devices");
  return p;
}
const Param& pipeline_parallel() {
  static const Param p =
      Param::count("pipeline_parallel", limits::kParallelDegree)
          .fallback("1")
          .read_when("a built-in model")
          .doc("pipeline stages the layers split into, one after another, each sending its hidden states to "
               "the next over the interconnect (llama-family models); the system must have tensor_parallel x "
               "pipeline_parallel devices");
  return p;
}
const Param& placement_evaluations() {
  static const Param p = Param::count("placement_evaluations", limits::kPlacementEvaluations)
                             .fallback(std::to_string(joint::kDefaultEvaluations))
                             .read_when("a profile that places with the schedule (default)")
                             .doc("placements the joint search expands, schedules and charges at most, seeds "
                                  "first (profiles that place with the schedule; small graphs are searched "
                                  "exhaustively whatever the budget)");
  return p;
}

const Param& placement_reuse() {
  static const Param p =
      Param::choice("placement_reuse", {"none", "by_class"})
          .fallback(std::string(serve::placement_reuse_name(serve::kDefaultPlacementReuse)))
          .read_when("a profile that places with the schedule (default)")
          .doc("by_class places each graph (a serving batch, a generation step) as the joint search placed its "
               "representative (every length rounded down to a power of two), searching it afresh when list "
               "scheduling from that placement does over 1 % better (sim/joint/placement_reuse.hpp: our "
               "approximation, faster; it moved llama-2-7b serving's mean TTFT by 10 % and keeps a "
               "one-sequence generation within 1 % of every step searched: docs/PERFORMANCE.md); none searches every graph");
  return p;
}

std::string model_value(const ConfigNode& value) {
  const std::string m = value.as_string();
  if (!frontend::is_graph_file(m)) return m;
  const std::string path = resolve(value);
  std::error_code ec;
  if (!fs::exists(path, ec)) value.fail("model file '" + path + "' does not exist");
  return path;
}

std::string existing_file(const ConfigNode& value, const std::string& what) {
  const std::string path = resolve(value);
  std::error_code ec;
  if (!fs::exists(path, ec)) value.fail(what + " '" + path + "' does not exist");
  return path;
}

std::string system_value(const ConfigNode& value) { return existing_file(value, "system file"); }

std::string objective_value(const ConfigNode& value) {
  return registered(value, [](const std::string& n) { opt::objective_named(n); });
}
std::string profile_value(const ConfigNode& value) {
  return registered(value, [](const std::string& n) { hw::profile_named(n); });
}
std::string scheduler_value(const ConfigNode& value) {
  return registered(value, [](const std::string& n) { sched::default_policies().at(n); });
}

bool system_models_precision(const std::string& system, const std::string& profile) {
  // Loading is milliseconds, but a sweep may have 100,000 points.
  static std::map<std::pair<std::string, std::string>, bool> known;
  const auto key = std::make_pair(system, profile);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  bool models = true;
  try {
    models = hw::System::load(system, hw::profile_named(profile)).models_precision();
  } catch (const Error&) {
  }
  return known[key] = models;
}

}  // namespace lightcode::sweep::rows
