#include "sim/sweep/tables.hpp"

#include <map>
#include <utility>

#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {
namespace {

// Rows a crossover scenario shares with sweep scenarios (it validates them the same way).
const Param& scenario_row(std::string_view key) { return *scenario_table().find(key); }

const ParamTable& crossover_lengths_table() {
  static const ParamTable table{
      "crossover.lengths",
      "The range of sequence lengths a crossover search covers, both ends included.",
      {
          Param::count("start", limits::kSequenceLength).required().doc("the shortest length"),
          Param::count("stop", limits::kSequenceLength).required().doc("the longest length, >= start"),
      }};
  return table;
}

const ParamTable& crossover_thresholds_table() {
  static const ParamTable table{
      "crossover.thresholds",
      "Per-op photonic thresholds: for each op, the length from which a photonic candidate of "
      "this system beats the rest.",
      {
          Param::text("system").required().doc("a configs/systems/*.yaml file, relative to the scenario file"),
      }};
  return table;
}

}  // namespace

const ParamTable& scenario_table() {
  static const ParamTable table{
      "scenario",
      "What to simulate and where to write it (`scenarios/*.yaml`, run by `lightcode run` and "
      "`lightcode sweep`). Paths are relative to the scenario file. Every key from `model` to "
      "`fidelity` may also be a sweep axis; a value no point reads is an error.",
      {
          Param::meta("name").doc("names the results; default: the file stem (1 to 1024 bytes)"),
          Param::meta("description").doc("what the scenario is for"),
          Param::text("output").doc("the HDF5 results file; default: `results/<name>.h5`"),
          Param::text("model").doc(
              "a built-in model (configs/models/) or a TVM graph JSON file; required, here or as "
              "a sweep axis"),
          Param::count("traced_length", limits::kSequenceLength)
              .doc("TVM graph files only: the length the graph was traced at (default: detected)"),
          Param::choice("stage", {"prefill", "decode", "generate", "serve"})
              .fallback("prefill")
              .doc("prefill a prompt, decode one token against a KV cache, generate new_tokens "
                   "after a prompt (its prefill, then one decode step per further token against "
                   "the cache so far; at event fidelity every step on one SystemC engine), or "
                   "serve a stream of requests on replicas (sim/serve)"),
          Param::choice("logits", {"last", "all"})
              .doc("built-in models only: project the last prompt token's hidden state to logits "
                   "(what generation needs), or every token's (TVM's traced graph); default: last, "
                   "all under the lightcode profile (the original's graphs)"),
          Param::count("precision", limits::kPrecisionBits)
              .doc("bits every matrix product requires (its operands' precision): a photonic core "
                   "built from devices runs it at these bits, and refuses it above its own; "
                   "default: an integer dtype's bits (int8: 8), else the unit's own precision. "
                   "The system must have a unit that models precision"),
          Param::count("sequence_length", limits::kSequenceLength)
              .doc("prefill tokens, the KV-cache length (decode) or the prompt (generate); "
                   "required, here or as a sweep axis"),
          Param::count("new_tokens", limits::kNewTokens)
              .doc("stage generate only, required there: tokens produced after the prompt"),
          Param::text("system").doc(
              "a configs/systems/*.yaml file; required, here or as a sweep axis"),
          Param::text("objective").fallback("time").doc(
              "what placement minimises: a registered objective (time, energy, edp)"),
          Param::text("profile").fallback("default").doc(
              "a registered profile: default, or lightcode (the original's arithmetic)"),
          Param::text("scheduler").doc(
              "a registered scheduling policy (`lightcode list schedulers`); default: the profile's"),
          Param::choice("fidelity", {"analytical", "event"})
              .fallback("event")
              .doc("the analytical timeline, or the SystemC event engine"),
          Param::boolean("pareto")
              .fallback("false")
              .doc("write the joint placement search's non-dominated (makespan, energy) placements "
                   "as the point's `pareto` table (profiles that place with the schedule)"),
          Param::count("placement_evaluations", limits::kPlacementEvaluations)
              .fallback("64")
              .doc("placements the joint search expands, schedules and charges at most, seeds "
                   "first (profiles that place with the schedule; small graphs are searched "
                   "exhaustively whatever the budget)"),
          Param::tables("replicas", serve_replica_table())
              .doc("stage serve only, required there: the device groups serving the requests, "
                   "each a system file and, optionally, its own batching keys"),
          Param::table("batching", serve_batching_table())
              .doc("stage serve only: how every replica batches (a replica's own keys override "
                   "these)"),
          Param::table("requests", serve_requests_table())
              .doc("stage serve only: generated requests (the arrival process, lengths, count, "
                   "seed); or give `trace`"),
          Param::text("trace").doc(
              "stage serve only: a CSV of requests (arrival_s, prompt_tokens, output_tokens), "
              "instead of `requests`"),
          Param::quantity("arrival_rate", Dimension::request_rate)
              .positive()
              .doc("stage serve with generated requests, required there: requests per second "
                   "(\"20 req/s\")"),
          Param::text("dispatch").fallback("round_robin").doc(
              "stage serve only: a registered dispatch policy (round_robin, "
              "least_outstanding_tokens, prompt_length)"),
          Param::text("dispatch_table").doc(
              "dispatch prompt_length only, required there: the YAML or JSON dispatch table "
              "`lightcode crossover` wrote; its systems are the replicas' (by name)"),
          Param::text("dispatch_objective").doc(
              "dispatch prompt_length only: which of the table's objectives routes; default: "
              "the scenario's objective"),
          Param::table("slo", serve_slo_table())
              .doc("stage serve only: latency targets; a request meeting both counts towards "
                   "goodput (absent: every request does)"),
          Param::choice("iteration_cost", {"composed", "exact"})
              .fallback("composed")
              .doc("stage serve only: exact builds, places and schedules every distinct batch "
                   "(a graph per iteration under load); composed prices a batch from a few exact "
                   "batch costs (sim/serve/composed_cost.hpp: our approximation, its error "
                   "measured there)"),
          Param::integer("cost_grid_bits")
              .fallback("3")
              .doc("stage serve, composed cost: the exact costs it asks are taken at numbers "
                   "of at most this many significant bits and interpolated between (0: every "
                   "value exact, and a batch of one costs what exact gives, to the picosecond)"),
          Param::named("sweep", nullptr)
              .doc("axes, the first outermost: a key above, or `<unit>.<key>[.<key>...]` of the "
                   "point's system, -> a list of values or a range "
                   "([scenario.range](#scenario.range)); `zip:` holds axes that advance together"),
      }};
  return table;
}

const ParamTable& serve_batching_table() {
  static const ParamTable table{
      "scenario.batching",
      "How a replica forms its iterations (sim/serve/batching.hpp).",
      {
          Param::text("policy").fallback("continuous").doc(
              "a registered batching policy: continuous (iteration-level, chunked prefill) or "
              "static (whole batches)"),
          Param::count("max_batch", limits::kBatchSequences)
              .fallback("32")
              .doc("sequences in one iteration at most"),
          Param::count("token_budget", limits::kSequenceLength)
              .fallback("512")
              .doc("continuous: new tokens in one iteration at most; a longer prompt is "
                   "prefilled in chunks"),
          Param::quantity("timeout", Dimension::duration)
              .fallback("0 s")
              .doc("static: how long the oldest request waits for a full batch"),
      }};
  return table;
}

const ParamTable& serve_replica_table() {
  // A replica's own batching keys are the batching table's, without defaults: what it does
  // not set comes from the scenario's `batching`.
  static const ParamTable table = [] {
    ParamTable t{"scenario.replica",
                 "One replica: a device group serving requests, with its own batching keys "
                 "([scenario.batching](#scenario.batching)) where it differs.",
                 {Param::text("system").required().doc("a configs/systems/*.yaml file")}};
    for (Param p : serve_batching_table().params) {
      p.presence = Presence::optional;
      p.default_text.clear();
      t.params.push_back(std::move(p));
    }
    return t;
  }();
  return table;
}

const ParamTable& serve_length_table() {
  static const ParamTable table{
      "scenario.length",
      "A token-count distribution for generated requests (sim/serve/requests.hpp): fixed "
      "reads `value`, uniform `min` and `max`, lognormal `median`, `sigma`, `min` and `max`.",
      {
          Param::text("distribution").required().doc("fixed, uniform or lognormal"),
          Param::count("value", limits::kSequenceLength).doc("fixed: the length"),
          Param::count("min", limits::kSequenceLength).doc("uniform, lognormal: the shortest"),
          Param::count("max", limits::kSequenceLength).doc("uniform, lognormal: the longest"),
          Param::real("median").positive().doc("lognormal: the median length"),
          Param::real("sigma").doc("lognormal: the standard deviation of the length's log"),
      }};
  return table;
}

const ParamTable& serve_requests_table() {
  static const ParamTable table{
      "scenario.requests",
      "Generated requests: arrivals at `arrival_rate` (a scenario key, so that it can be swept) "
      "from a registered process, lengths from distributions, one random stream per seed.",
      {
          Param::count("count", limits::kRequests).required().doc("requests generated"),
          Param::text("arrival").fallback("poisson").doc(
              "a registered arrival process: poisson, or gamma (with `cv`)"),
          Param::real("cv").positive().doc(
              "gamma: the coefficient of variation of the gaps between arrivals (1: Poisson)"),
          Param::table("prompt", serve_length_table()).required().doc("prompt tokens"),
          Param::table("output", serve_length_table()).required().doc("tokens to generate"),
          Param::integer("seed").fallback("0").doc("the random stream's seed"),
      }};
  return table;
}

const ParamTable& serve_slo_table() {
  static const ParamTable table{
      "scenario.slo",
      "Latency targets for goodput: a request meets them when its time to first token and its "
      "time per output token are both within them.",
      {
          Param::quantity("ttft", Dimension::duration).positive().doc("time to first token at most"),
          Param::quantity("tpot", Dimension::duration).positive().doc("time per output token at most"),
      }};
  return table;
}

const ParamTable& sweep_range_table() {
  static const ParamTable table{
      "scenario.range",
      "A sweep axis as a range of numbers, both ends included: `{start: 128, stop: 1024, step: "
      "128}` or, geometric, `{start: 1, stop: 64, factor: 2}`.",
      {
          Param::real("start").required().doc("the first value (> 0 for a geometric range)"),
          Param::real("stop").required().doc("the last value at most, >= start"),
          Param::real("step").positive().doc("arithmetic: the difference of successive values"),
          Param::real("factor").doc("geometric, > 1: the ratio of successive values"),
      }};
  return table;
}

const ParamTable& crossover_table() {
  static const ParamTable table{
      "crossover",
      "A crossover study (`lightcode crossover`, `scenarios/crossover.yaml`): the sequence lengths "
      "at which the best of several systems for a model changes. Paths are relative to the file.",
      {
          Param::meta("name").doc("names the dispatch table; default: the file stem"),
          scenario_row("description"),
          Param::text("model").required().doc("a built-in model (configs/models/) or a TVM graph JSON file"),
          Param::choice("stage", {"prefill", "decode"}).fallback("prefill").doc(
              "prefill: the length is the prompt; decode: the length is the KV cache"),
          scenario_row("traced_length"),
          scenario_row("logits"),
          scenario_row("precision"),
          scenario_row("profile"),
          Param::list("systems").required().doc(
              "a list of at least two configs/systems/*.yaml files, each once; ties go to the "
              "first listed"),
          Param::list("objectives").required().doc(
              "a list of registered objectives (time, energy, edp), each once: one dispatch table each"),
          Param::table("lengths", crossover_lengths_table()).required().doc("the lengths searched"),
          Param::table("thresholds", crossover_thresholds_table()).doc(
              "per-op photonic thresholds on one system; absent: none"),
          Param::text("output").doc(
              "base path of the dispatch table: `<output>.yaml` and `<output>.json`; default: "
              "`results/<name>`"),
      }};
  return table;
}

namespace {

// Whether the point's system has a unit that models precision; a system that does not load
// counts as reading it (the point reports the system's own error). Memoised by file: loading
// is milliseconds, but a sweep may have 100,000 points.
bool system_models_precision(const PointSpec& point) {
  static std::map<std::pair<std::string, std::string>, bool> known;
  const auto key = std::make_pair(point.system, point.profile);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  bool models = true;
  try {
    models = hw::System::load(point.system, hw::profile_named(point.profile)).models_precision();
  } catch (const Error&) {
  }
  return known[key] = models;
}

}  // namespace

namespace {
// Keys only a serve point reads, and keys no serve point reads.
bool serve_only(std::string_view key) {
  for (const char* k : {"replicas", "batching", "requests", "trace", "arrival_rate", "dispatch", "dispatch_table",
                        "dispatch_objective", "slo", "iteration_cost", "cost_grid_bits"}) {
    if (key == k) return true;
  }
  return false;
}
bool not_serve(std::string_view key) {
  for (const char* k : {"system", "sequence_length", "traced_length", "logits", "precision", "pareto", "fidelity"}) {
    if (key == k) return true;
  }
  return false;
}
}  // namespace

bool scenario_key_read(const PointSpec& point, std::string_view key) {
  const bool serve = point.stage == "serve";
  if (serve_only(key)) {
    if (!serve) return false;
    if (key == "requests" || key == "arrival_rate") return point.serve.trace.empty();
    if (key == "trace") return !point.serve.trace.empty();
    if (key == "dispatch_table" || key == "dispatch_objective") return point.serve.dispatch == "prompt_length";
    if (key == "cost_grid_bits") return point.serve.iteration_cost == "composed";
    return true;
  }
  if (serve && not_serve(key)) return false;
  if (key == "pareto" || key == "placement_evaluations") return hw::profile_named(point.profile).places_with_schedule();
  if (key == "precision") return system_models_precision(point);
  if (key == "traced_length") return frontend::is_graph_file(point.model);
  if (key == "new_tokens") return point.stage == "generate";
  if (key == "logits") return !frontend::is_graph_file(point.model);
  return true;
}

std::string read_only_with(std::string_view key) {
  if (key == "requests" || key == "arrival_rate") return "stage: serve and generated requests (no `trace`)";
  if (key == "dispatch_table" || key == "dispatch_objective") return "stage: serve and dispatch: prompt_length";
  if (key == "cost_grid_bits") return "stage: serve and iteration_cost: composed";
  if (serve_only(key)) return "stage: serve";
  if (key == "fidelity") return "a stage other than serve (serve times its iterations analytically)";
  if (key == "traced_length") return "a TVM graph file for model";
  if (key == "new_tokens") return "stage: generate";
  if (key == "logits") return "a built-in model";
  if (key == "precision") return "a system with a unit that models precision (a photonic core built from devices)";
  if (key == "pareto" || key == "placement_evaluations") return "a profile that places with the schedule (default)";
  if (not_serve(key)) return "a stage other than serve";
  return "";
}

}  // namespace lightcode::sweep
