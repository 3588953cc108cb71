#include "sim/stages/serve/serve_stage.hpp"

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/opt/objective.hpp"
#include "sim/serve/composed_cost.hpp"
#include "sim/serve/metrics.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/serve/replica_memory.hpp"
#include "sim/sched/reported_cost.hpp"
#include "sim/serve/simulator.hpp"
#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/units.hpp"
#include "sim/serve/register_policies.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {
namespace {

std::vector<serve::Request> point_requests(const ServePoint& s) {
  if (!s.trace.empty()) return serve::load_request_trace(s.trace);
  serve::GeneratorSpec g = s.generator;
  g.rate_per_s = s.arrival_rate_per_s;
  return serve::generate_requests(g);
}

// The overrides a replica's system takes: the point's for the point's system, else none.
const std::vector<std::pair<std::string, std::string>>& overrides_of(const PointSpec& point, const ServeReplica& r) {
  static const std::vector<std::pair<std::string, std::string>> none;
  return r.point_system ? point.overrides : none;
}

// A replica's system file with its overrides, as one text (memo keys, input checks).
std::string system_key(const PointSpec& point, const ServeReplica& r) {
  std::string key = r.system;
  for (const auto& [path, value] : overrides_of(point, r)) key += "\n" + path + "=" + value;
  return key;
}

struct Replicas {
  std::vector<std::shared_ptr<const hw::System>> systems;
  std::vector<std::shared_ptr<const serve::PipelineIterationCost>> exact;  // graphs built: misses()
  serve::ServeSpec spec;
};

// A replica's iteration costs. Points of one process that price the same model on the same
// system the same way share them (`lightcode run` runs a sweep's serve points in turn): the
// costs are pure functions memoised inside, so sharing changes no figure, only how many graphs
// are built again.
struct ReplicaCosts {
  std::shared_ptr<const serve::PipelineIterationCost> exact;
  std::shared_ptr<const serve::IterationCost> priced;  // exact, or composed over it
};

const ReplicaCosts& replica_costs(const PointSpec& point, const std::string& system_key,
                                  const frontend::ModelConfig& model,
                                  std::shared_ptr<const hw::System> system,
                                  opt::Objective objective, const sched::SchedulingPolicy& policy, int threads) {
  static std::map<std::string, ReplicaCosts> shared;
  const bool composed = point.serve.iteration_cost == IterationCostKind::composed;
  const std::string key = point.model + "\n" + system_key + "\n" + point.profile + "\n" +
                          point.objective + "\n" + std::string(policy.name()) + "\n" +
                          std::to_string(point.placement_evaluations) + "\n" +
                          std::string(iteration_cost_name(point.serve.iteration_cost)) + "\n" +
                          (composed ? std::to_string(point.serve.cost_grid_bits) : "") + "\n" +
                          std::string(serve::layer_pricing_name(point.serve.iteration_layers)) + "\n" +
                          std::string(frontend::batch_attention_name(point.serve.attention)) + "\n" +
                          std::string(serve::placement_reuse_name(point.placement_reuse)) + "\n" +
                          std::to_string(point.tensor_parallel);
  if (const auto it = shared.find(key); it != shared.end()) return it->second;
  serve::PipelineCostOptions options;
  options.joint_search = hw::profile_named(point.profile).places_with_schedule();
  options.joint_evaluations = static_cast<int>(point.placement_evaluations);
  options.layers = point.serve.iteration_layers;
  options.attention = point.serve.attention;
  options.tensor_parallel = point.tensor_parallel;
  options.reuse = point.placement_reuse;
  options.threads = threads;  // not in the key: it changes when a figure is found, not the figure
  ReplicaCosts costs;
  costs.exact = std::make_shared<serve::PipelineIterationCost>(model, std::move(system), objective,
                                                               policy, options);
  costs.priced = costs.exact;
  if (composed) {
    const int bits = static_cast<int>(point.serve.cost_grid_bits);
    costs.priced = std::make_shared<serve::ComposedIterationCost>(
        costs.exact, serve::ComposedCostOptions{bits, bits, bits});
  }
  return shared.emplace(key, std::move(costs)).first->second;
}

Replicas build_replicas(const PointSpec& point, const frontend::ModelConfig& model, int threads) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  const opt::Objective objective = opt::objective_named(point.objective).id;
  const sched::SchedulingPolicy& policy = sched::default_policies().at(
      point.scheduler.empty() ? profile.default_scheduler() : point.scheduler);
  Replicas out;
  for (size_t i = 0; i < point.serve.replicas.size(); ++i) {
    const ServeReplica& r = point.serve.replicas[i];
    const std::string where = "replica " + std::to_string(i) + " (" + r.system + "): ";
    try {
      auto system =
          std::make_shared<const hw::System>(hw::System::from_config(system_config(r.system, overrides_of(point, r)), profile));
      system->require_devices(point.tensor_parallel,
                              "tensor_parallel " + std::to_string(point.tensor_parallel) + " needs as many devices");
      serve::ReplicaSpec spec;
      spec.kv_capacity_tokens = serve::replica_memory(model, *system, point.tensor_parallel).kv_tokens;
      spec.batching = r.batching;
      // Every device of the group draws its units' static power; shared units once.
      spec.static_power_w = hw::static_power_watts(*system) +
                            static_cast<double>(point.tensor_parallel - 1) * sched::device_static_watts(*system);
      spec.iteration_overhead = point.serve.iteration_overhead;
      spec.sequence_overhead = point.serve.sequence_overhead;
      if (point.serve.overhead_power_w) {
        if (*point.serve.overhead_power_w < spec.static_power_w) {
          throw Error("overhead_power " + format_quantity(*point.serve.overhead_power_w, Dimension::power) +
                      " is below the replica's static power " + format_quantity(spec.static_power_w, Dimension::power));
        }
        spec.overhead_extra_power_w = *point.serve.overhead_power_w - spec.static_power_w;
      }
      const ReplicaCosts& costs = replica_costs(point, system_key(point, r), model, system, objective, policy, threads);
      spec.cost = costs.priced;
      out.exact.push_back(costs.exact);
      out.systems.push_back(std::move(system));
      out.spec.replicas.push_back(std::move(spec));
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
  return out;
}

void fill_serving_report(const serve::ServeResult& served, const serve::ServeSummary& figures,
                         const Replicas& replicas, results::PointResult& out) {
  results::PointSummary& sum = out.summary;
  const double run_s = served.run_time.seconds();
  for (size_t i = 0; i < served.replicas.size(); ++i) {
    const serve::ReplicaRecord& r = served.replicas[i];
    const std::string name = replicas.systems[i]->name();
    results::UnitRecord u;
    u.name = name;
    u.kind = "replica";
    u.index = static_cast<int32_t>(i);
    u.busy = r.busy;
    u.utilisation = figures.utilisation[i];
    u.energy_pj = r.dynamic_energy.picojoules();
    u.tasks = r.iterations;
    u.static_energy_pj = figures.static_energy[i].picojoules();
    out.units.push_back(u);
    const std::string hardware = "replica" + std::to_string(i) + " " + name;
    out.energy.push_back(results::EnergyRow{hardware, "dynamic", u.energy_pj});
    out.energy.push_back(results::EnergyRow{hardware, "static", u.static_energy_pj});
    for (const serve::QueueSample& q : r.series) {
      out.serve_series.push_back(
          results::ServeSample{static_cast<int32_t>(i), q.time, q.queue, q.running});
    }
  }
  for (const serve::RequestRecord& r : served.requests) {
    results::RequestRow row;
    row.id = r.id;
    row.replica = static_cast<int32_t>(r.replica);
    row.prompt_tokens = r.prompt_tokens;
    row.output_tokens = r.output_tokens;
    row.arrival = r.arrival;
    row.preemptions = r.preemptions;
    if (r.rejected()) {  // never served: no time applies
      row.first_service = row.first_token = row.finish = Time::ps(-1);
      row.ttft_s = row.tpot_s = row.latency_s = std::numeric_limits<double>::quiet_NaN();
      row.status = "rejected";
      row.reason = r.rejection;
    } else {
      row.first_service = r.first_service;
      row.first_token = r.first_token;
      row.finish = r.finish;
      row.ttft_s = r.ttft().seconds();
      row.tpot_s = r.tpot_s();
      row.latency_s = r.latency().seconds();
    }
    out.requests.push_back(std::move(row));
  }
  sum.makespan = served.run_time;
  sum.makespan_s = run_s;
  sum.analytical_makespan = served.run_time;
  sum.energy_pj = check_energy(figures.energy.picojoules(), "the serving run's energy");
  sum.energy_per_token_pj = figures.energy_per_output_token_pj;
  sum.requests = static_cast<int64_t>(served.requests.size());
  sum.replicas = static_cast<int64_t>(served.replicas.size());
  sum.iterations = served.iteration_count;
  sum.ttft_p50_s = figures.ttft_s.p50;
  sum.ttft_p90_s = figures.ttft_s.p90;
  sum.ttft_p99_s = figures.ttft_s.p99;
  sum.tpot_p50_s = figures.tpot_s.p50;
  sum.tpot_p90_s = figures.tpot_s.p90;
  sum.tpot_p99_s = figures.tpot_s.p99;
  sum.latency_p50_s = figures.latency_s.p50;
  sum.latency_p90_s = figures.latency_s.p90;
  sum.latency_p99_s = figures.latency_s.p99;
  sum.throughput_tokens_per_s = figures.throughput_tokens_per_s;
  sum.goodput_requests_per_s = figures.goodput_requests_per_s;
  sum.preemptions = figures.preemptions;
  sum.rejected = served.rejected;
  sum.output_tokens = figures.output_tokens;
  sum.average_power_w = figures.average_power_w;
  sum.steady_state_s = figures.steady_state_s;
  sum.steady_output_tokens = figures.steady_output_tokens;
  sum.steady_throughput_tokens_per_s = figures.steady_throughput_tokens_per_s;
  sum.steady_energy_per_token_pj = figures.steady_energy_per_output_token_pj;
  sum.steady_power_w = figures.steady_power_w;
  sum.steady_iterations = figures.steady_iterations;
  sum.steady_sequence_iterations = figures.steady_sequence_iterations;
}

}  // namespace

PointRun run_serving(const PointSpec& point, const PointOptions& options) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  const frontend::ModelConfig model = frontend::builtin_model(point.model);
  const std::vector<serve::Request> requests = point_requests(point.serve);
  Replicas replicas = build_replicas(point, model, options.threads);
  serve::DispatchContext context{point.model, point.profile, point.objective, {}, &requests};
  for (const auto& s : replicas.systems) context.replica_names.push_back(s->name());
  replicas.spec.dispatch = point.serve.dispatch->bind(context);
  // The report keeps requests and queue series only; the dataset (sim/dataset) asks for more.
  replicas.spec.keep_iterations = options.keep_iterations;
  // Graphs this point built (replicas on one system share a cost: count it once).
  std::map<const serve::PipelineIterationCost*, int64_t> graphs_before;
  for (const auto& exact : replicas.exact) graphs_before.emplace(exact.get(), exact->graphs());
  serve::ServeResult served = serve::simulate_serving(requests, replicas.spec);
  const serve::ServeSummary figures = serve::summarise(
      served, replicas.spec, serve::SloTargets{point.serve.slo_ttft, point.serve.slo_tpot});

  PointRun run;
  results::PointSummary& sum = run.result.summary;
  sum.id = point.id;
  sum.parameters = point.parameters;
  sum.model = point.model;
  sum.stage = std::string(stage_name(point.stage));
  sum.parts = serve_stage().summary_parts;
  for (const auto& s : replicas.systems)
    sum.system += (sum.system.empty() ? "" : " + ") + s->name();
  sum.objective = point.objective;
  sum.profile = std::string(profile.name());
  sum.scheduler =
      point.scheduler.empty() ? std::string(profile.default_scheduler()) : point.scheduler;
  sum.fidelity = "analytical";
  sum.dispatch = point.serve.dispatch_policy;
  sum.arrival_rate_per_s = point.serve.trace.empty() ? point.serve.arrival_rate_per_s : 0.0;
  fill_serving_report(served, figures, replicas, run.result);
  for (const auto& [exact, before] : graphs_before) sum.iteration_graphs += exact->graphs() - before;
  run.iterations = std::move(served.iterations);
  return run;
}

namespace {

const ParamTable& serve_replica_table() {
  static const ParamTable table{
      "scenario.replica",
      "One replica: a device group serving requests, with its own batching keys "
      "([scenario.batching](#scenario.batching)) where it differs; they are merged over the scenario's.",
      {Param::text("system").required().doc("a configs/systems/*.yaml file")}};
  return table;
}

const ParamTable& serve_slo_table() {
  static const ParamTable table{
      "scenario.slo",
      "Latency targets for goodput: a request meets them when its time to first token and its time per output "
      "token are both within them.",
      {
          Param::quantity("ttft", Dimension::duration).positive().doc("time to first token at most"),
          Param::quantity("tpot", Dimension::duration).positive().doc("time per output token at most"),
      }};
  return table;
}

}  // namespace

const ParamTable& serve_table() {
  static const ParamTable table{
      "stage.serve",
      "Stage serve: a request stream on replicas (sim/serve).",
      {
          rows::system(),
          Param::tables("replicas", serve_replica_table())
              .doc("the device groups serving the requests, each a system file and, optionally, its own batching "
                   "keys; required unless `system` names one"),
          Param::table("batching", serve::batching_table())
              .doc("how every replica batches: a registered policy and its keys (a replica's own keys override "
                   "these)"),
          Param::table("requests", serve::requests_table())
              .read_when("generated requests (no `trace`)")
              .doc("generated requests (the arrival process, lengths, count, seed); or give `trace`"),
          Param::text("trace").doc(
              "a CSV of requests (arrival_s, prompt_tokens, output_tokens), instead of `requests`"),
          Param::quantity("arrival_rate", Dimension::request_rate)
              .positive()
              .read_when("generated requests (no `trace`)")
              .doc("generated requests, required there: requests per second (\"20 req/s\")"),
          Param::table("dispatch", serve::dispatch_table())
              .doc("which replica each request goes to: a registered policy and its keys (`dispatch: "
                   "least_outstanding_tokens` for short)"),
          Param::table("slo", serve_slo_table())
              .doc("latency targets; a request meeting both counts towards goodput (absent: every request does)"),
          Param::choice("iteration_cost", {"composed", "exact"})
              .fallback("composed")
              .doc("exact builds, places and schedules every distinct batch (a graph per iteration under load); "
                   "composed prices a batch from a few exact batch costs (sim/serve/composed_cost.hpp: our "
                   "approximation, its error measured there)"),
          Param::integer("cost_grid_bits", limits::kCostGridBits)
              .fallback(std::to_string(serve::kDefaultGridBits))
              .read_when("iteration_cost: composed")
              .doc("composed cost: the exact costs it asks are taken at numbers of at most this many significant "
                   "bits and interpolated between (0: every value exact, and a batch of one costs what exact "
                   "gives, to the picosecond)"),
          Param::choice("iteration_layers", {"auto", "extrapolated", "all"})
              .fallback(std::string(serve::layer_pricing_name(serve::kDefaultLayerPricing)))
              .doc("extrapolated builds each priced batch with 1 and with 2 decoder layers and takes cost(L) = "
                   "cost(1) + (L - 1) x (cost(2) - cost(1)) (sim/serve/pipeline_cost.hpp: our approximation, its "
                   "error measured there (tests/unit/serve/test_layer_pricing.cpp): the objective's own figure within 3.3 % for llama-2-7b, 21 % for gpt2); all builds the model's "
                   "every layer; auto is all up to 12 decoder layers (gpt2's: every layer is cheap there and the "
                   "shipped GPT-2 studies keep their figures), extrapolated above (a 32-layer batch built whole "
                   "takes seconds)"),
          Param::choice("attention", {"per_sequence", "paged"})
              .fallback("per_sequence")
              .doc("how each priced batch runs attention (frontend/models/model_builder.hpp): per_sequence is "
                   "Hugging Face's eager loop (one attention per sequence, repeat_kv copied, the cache "
                   "concatenated); paged is our reading of vLLM's kernels (sequences of equal lengths in one "
                   "launch, grouped-query heads reading their KV head once, the cache appended in place), "
                   "llama-family models only; sequences of different lengths are separate launches in a built "
                   "batch, so under paged the composed cost (one launch at the mean context) is the closer "
                   "model (sim/serve/composed_cost.hpp)"),
          Param::quantity("iteration_overhead", Dimension::duration)
              .fallback("0 s")
              .doc("host time each iteration adds while the replica's devices wait: a serving engine's "
                   "scheduling, sampling and output processing between steps (vLLM 0.5 runs them between GPU "
                   "steps, without overlap); with sequence_overhead, a fitted figure for an engine, not a "
                   "hardware one"),
          Param::quantity("overhead_power", Dimension::power)
              .doc("the replica's power while its host works between steps (iteration_overhead, "
                   "sequence_overhead), its static power included, at least that (absent: the static power "
                   "alone); with the overheads, a fitted figure for an engine on its hardware"),
          Param::quantity("sequence_overhead", Dimension::duration)
              .fallback("0 s")
              .doc("host time an iteration adds per sequence in it (sampling and detokenising each one), beside "
                   "iteration_overhead"),
          rows::placement_evaluations(),
          rows::placement_reuse(),
          rows::tensor_parallel(),
      }};
  return table;
}

namespace {

void read_serve(const Params& p, PointSpec& s) {
  ServePoint& v = s.serve;
  serve::ServePolicies& registered = serve::policies();
  if (frontend::is_graph_file(s.model)) {
    p.at("model").fail("stage serve builds each iteration's batch from a built-in model, not a graph file (TVM or ONNX)");
  }
  s.fidelity = Fidelity::analytical;  // a serve point times its iterations analytically
  s.tensor_parallel = p.count("tensor_parallel");  // each replica a tensor-parallel group
  if (hw::profile_named(s.profile).places_with_schedule()) {
    s.placement_evaluations = p.count("placement_evaluations");
    s.placement_reuse = serve::parse_placement_reuse(p.choice("placement_reuse"));
  }
  ConfigNode batching;  // an absent mapping: every key its default
  if (p.has("batching")) {
    p.mark("batching");
    batching = p.at("batching");
  }
  ConfigUsage& usage = p.usage();
  const auto batching_of = [&](const ConfigNode& own) {
    return serve::read_selected(own.merged_over(batching), serve::batching_table(), "policy", registered.batching,
                                "batching policy", usage)
        .made;
  };
  v.replicas.clear();
  if (p.has("replicas")) {
    p.mark("replicas");
    const ConfigNode list = p.at("replicas");
    if (!list.is_list() || list.size() == 0) list.fail("`replicas` is a list of at least one {system: <file>}");
    if (static_cast<int64_t>(list.size()) > limits::kReplicas.value) {
      list.fail(std::to_string(list.size()) + " replicas, above the limit of " +
                std::to_string(limits::kReplicas.value) + " (" + std::string(limits::kReplicas.name) + ")");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      const ConfigNode item = list[i];
      if (!item.is_map()) item.fail("a replica is a mapping {system: <file>, ...its own batching keys}");
      if (!item.has("system")) item.fail("missing key 'system' (a configs/systems/*.yaml file)");
      usage.mark(item);
      usage.mark(item.at("system"));
      ServeReplica r;
      r.system = rows::system_value(item.at("system"));
      r.batching = batching_of(item.without("system"));
      v.replicas.push_back(std::move(r));
    }
  } else {
    if (!p.has("system")) p.node().fail("stage serve needs `replicas` (a list of {system: <file>}) or a `system`");
    p.mark("system");
    ServeReplica r;
    r.system = s.system = rows::system_value(p.at("system"));
    r.point_system = true;
    r.batching = batching_of(ConfigNode());
    v.replicas.push_back(std::move(r));
  }
  v.generated = p.has("requests");
  if (p.has("trace") == v.generated) {
    p.node().fail("stage serve takes its requests from `requests` (generated, with `arrival_rate`) or from a `trace` "
                  "file: give one of them");
  }
  if (v.generated) {
    p.mark("requests");
    v.generator = serve::parse_generator(p.at("requests"), usage);
    const std::optional<double> rate = p.quantity_if("arrival_rate");
    if (!rate) p.node().fail("stage serve with generated requests needs `arrival_rate` (e.g. \"20 req/s\")");
    v.arrival_rate_per_s = *rate;
  } else {
    p.mark("trace");
    v.trace = rows::existing_file(p.at("trace"), "trace file");
  }
  ConfigNode dispatch;
  if (p.has("dispatch")) {
    p.mark("dispatch");
    dispatch = p.at("dispatch");
    if (dispatch.is_scalar()) dispatch = ConfigNode().with_node("policy", dispatch);
  }
  const auto chosen =
      serve::read_selected(dispatch, serve::dispatch_table(), "policy", registered.dispatch, "dispatch policy", usage);
  v.dispatch_policy = chosen.entry->name;
  v.dispatch = chosen.made;
  if (const auto slo = p.table_if("slo")) {
    if (const auto t = slo->quantity_if("ttft")) v.slo_ttft = Time::from_seconds(*t);
    if (const auto t = slo->quantity_if("tpot")) v.slo_tpot = Time::from_seconds(*t);
  }
  v.iteration_cost = parse_iteration_cost(p.choice("iteration_cost"));
  if (v.iteration_cost == IterationCostKind::composed) v.cost_grid_bits = p.integer("cost_grid_bits");
  v.iteration_layers = serve::parse_layer_pricing(p.choice("iteration_layers"));
  v.attention = frontend::parse_batch_attention(p.choice("attention"));
  v.iteration_overhead = Time::from_seconds(p.quantity("iteration_overhead"));
  v.sequence_overhead = Time::from_seconds(p.quantity("sequence_overhead"));
  v.overhead_power_w = p.quantity_if("overhead_power");
}

void check_serve_inputs(const PointSpec& p, InputChecks& checks) {
  checks.once("model\n" + p.model + "\n" + std::string(frontend::batch_attention_name(p.serve.attention)), [&] {
    const frontend::ModelConfig model = frontend::builtin_model(p.model);
    if (!frontend::builds_batch_attention(model, p.serve.attention)) {
      throw Error("attention: paged is built for llama-family models (model_type llama); model '" + p.model +
                  "' is " + std::string(frontend::family_name(model.model_type)) + ": use per_sequence");
    }
  });
  for (const ServeReplica& r : p.serve.replicas) {
    checks.once("system\n" + p.profile + "\n" + system_key(p, r), [&] {
      hw::System::from_config(system_config(r.system, overrides_of(p, r)), hw::profile_named(p.profile));
    });
  }
  if (!p.serve.trace.empty()) checks.once("trace\n" + p.serve.trace, [&] { serve::load_request_trace(p.serve.trace); });
  for (const std::string& file : p.serve.dispatch->input_files()) {
    checks.once("dispatch\n" + file, [&] { p.serve.dispatch->check_inputs(); });
  }
}

}  // namespace

StageInfo serve_stage() {
  return StageInfo{Stage::serve,
                   "serve",
                   "a request stream on replicas: batching, KV memory, dispatch (latency percentiles, throughput, "
                   "goodput, energy per output token)",
                   &serve_table(),
                   results::kServingFigures | results::kPerTokenEnergy,
                   read_serve,
                   check_serve_inputs,
                   run_serving};
}

}  // namespace lightcode::sweep
