#include "sim/sweep/run_serving.hpp"

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
#include "sim/serve/simulator.hpp"
#include "sim/sweep/dispatch_table.hpp"

namespace lightcode::sweep {
namespace {

std::vector<serve::Request> point_requests(const ServePoint& s) {
  if (!s.trace.empty()) return serve::load_request_trace(s.trace);
  serve::GeneratorSpec g = s.generator;
  g.rate_per_s = s.arrival_rate_per_s;
  return serve::generate_requests(g);
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

const ReplicaCosts& replica_costs(const PointSpec& point, const std::string& system_file,
                                  const frontend::ModelConfig& model,
                                  std::shared_ptr<const hw::System> system,
                                  opt::Objective objective, const sched::SchedulingPolicy& policy) {
  static std::map<std::string, ReplicaCosts> shared;
  const bool composed = point.serve.iteration_cost == "composed";
  const std::string key = point.model + "\n" + system_file + "\n" + point.profile + "\n" +
                          point.objective + "\n" + std::string(policy.name()) + "\n" +
                          std::to_string(point.placement_evaluations) + "\n" +
                          point.serve.iteration_cost + "\n" +
                          (composed ? std::to_string(point.serve.cost_grid_bits) : "");
  if (const auto it = shared.find(key); it != shared.end()) return it->second;
  serve::PipelineCostOptions options;
  options.joint_search = hw::profile_named(point.profile).places_with_schedule();
  options.joint_evaluations = static_cast<int>(point.placement_evaluations);
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

Replicas build_replicas(const PointSpec& point, const frontend::ModelConfig& model) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  const opt::Objective objective = opt::objective_named(point.objective).id;
  const sched::SchedulingPolicy& policy = sched::default_policies().at(
      point.scheduler.empty() ? profile.default_scheduler() : point.scheduler);
  Replicas out;
  for (size_t i = 0; i < point.serve.replicas.size(); ++i) {
    const ServeReplica& r = point.serve.replicas[i];
    const std::string where = "replica " + std::to_string(i) + " (" + r.system + "): ";
    try {
      auto system = std::make_shared<const hw::System>(hw::System::load(r.system, profile));
      serve::ReplicaSpec spec;
      spec.kv_capacity_tokens = serve::replica_memory(model, *system).kv_tokens;
      spec.batching = point.serve.batching_of(i);
      spec.static_power_w = hw::static_power_watts(*system);
      const ReplicaCosts& costs = replica_costs(point, r.system, model, system, objective, policy);
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

// The dispatch table's ranges for the point's objective, each naming the replica whose system
// it routes to; every request's prompt must lie in one.
std::vector<serve::DispatchRange> table_ranges(const PointSpec& point, const Replicas& replicas,
                                               const std::vector<serve::Request>& requests) {
  const std::string& path = point.serve.dispatch_table;
  const LoadedDispatchTable table = load_dispatch_table(path);
  const std::string where = "dispatch table '" + path + "': ";
  if (table.model != point.model)
    throw Error(where + "made for model '" + table.model + "', this point serves '" + point.model +
                "'");
  if (table.stage != "prefill")
    throw Error(where + "routes by " + table.stage + " length; prompts need a prefill table");
  if (table.profile != point.profile) {
    throw Error(where + "made under profile '" + table.profile + "', this point runs '" +
                point.profile + "'");
  }
  const std::string objective =
      point.serve.dispatch_objective.empty() ? point.objective : point.serve.dispatch_objective;
  const DispatchObjective* found = nullptr;
  for (const DispatchObjective& o : table.objectives) {
    if (o.objective == objective) found = &o;
  }
  if (!found)
    throw Error(where + "has no table for objective '" + objective +
                "' (set `dispatch_objective`)");
  std::vector<serve::DispatchRange> ranges;
  for (const DispatchRule& rule : found->rules) {
    size_t replica = replicas.systems.size();
    for (size_t i = 0; i < replicas.systems.size() && replica == replicas.systems.size(); ++i) {
      if (replicas.systems[i]->name() == rule.system) replica = i;
    }
    if (replica == replicas.systems.size()) {
      std::string names;
      for (const auto& s : replicas.systems) names += (names.empty() ? "" : ", ") + s->name();
      throw Error(where + "prompts of " + std::to_string(rule.from) + ".." +
                  std::to_string(rule.to) + " tokens go to system '" + rule.system +
                  "', which no replica is (replicas: " + names + ")");
    }
    ranges.push_back(serve::DispatchRange{rule.from, rule.to, replica});
  }
  for (const serve::Request& q : requests) {
    bool covered = false;
    for (const serve::DispatchRange& r : ranges)
      covered = covered || (q.prompt_tokens >= r.from && q.prompt_tokens <= r.to);
    if (!covered) {
      throw Error(where + "covers prompts of " + std::to_string(table.start) + ".." +
                  std::to_string(table.stop) + " tokens; request " + std::to_string(q.id) +
                  " has " + std::to_string(q.prompt_tokens));
    }
  }
  return ranges;
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
    row.first_service = r.first_service;
    row.first_token = r.first_token;
    row.finish = r.finish;
    row.ttft_s = r.ttft().seconds();
    row.tpot_s = r.tpot_s();
    row.latency_s = r.latency().seconds();
    row.preemptions = r.preemptions;
    out.requests.push_back(row);
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
  sum.output_tokens = figures.output_tokens;
}

}  // namespace

PointRun run_serving(const PointSpec& point) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  const frontend::ModelConfig model = frontend::builtin_model(point.model);
  const std::vector<serve::Request> requests = point_requests(point.serve);
  Replicas replicas = build_replicas(point, model);
  serve::DispatchSpec& dispatch = replicas.spec.dispatch;
  dispatch.policy = point.serve.dispatch;
  if (dispatch.policy == "prompt_length") dispatch.ranges = table_ranges(point, replicas, requests);
  replicas.spec.keep_iterations = false;  // the report keeps requests and queue series only
  // Graphs this point built (replicas on one system share a cost: count it once).
  std::map<const serve::PipelineIterationCost*, int64_t> misses_before;
  for (const auto& exact : replicas.exact) misses_before.emplace(exact.get(), exact->misses());
  const serve::ServeResult served = serve::simulate_serving(requests, replicas.spec);
  const serve::ServeSummary figures = serve::summarise(
      served, replicas.spec, serve::SloTargets{point.serve.slo_ttft, point.serve.slo_tpot});

  PointRun run;
  results::PointSummary& sum = run.result.summary;
  sum.id = point.id;
  sum.parameters = point.parameters;
  sum.model = point.model;
  sum.stage = point.stage;
  for (const auto& s : replicas.systems)
    sum.system += (sum.system.empty() ? "" : " + ") + s->name();
  sum.objective = point.objective;
  sum.profile = std::string(profile.name());
  sum.scheduler =
      point.scheduler.empty() ? std::string(profile.default_scheduler()) : point.scheduler;
  sum.fidelity = "analytical";
  sum.dispatch = point.serve.dispatch;
  sum.arrival_rate_per_s = point.serve.trace.empty() ? point.serve.arrival_rate_per_s : 0.0;
  fill_serving_report(served, figures, replicas, run.result);
  for (const auto& [exact, before] : misses_before) sum.iteration_graphs += exact->misses() - before;
  return run;
}

}  // namespace lightcode::sweep
