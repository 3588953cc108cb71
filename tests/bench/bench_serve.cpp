// Serving budget (issue 16): 100,000 requests under continuous batching on two replicas
// simulated in under 60 s on the 2-core machine, peak memory under 1 GiB. Each replica's
// iteration cost is a ComposedIterationCost (grids 2/3/3) over a PipelineIterationCost:
// gpt2 on configs/systems/gpu.yaml and on gpu_phu.yaml, sum selection for time, list policy.
// Requests: Poisson at 25 per second (about 90 % of what the two replicas sustain: at 40 per
// second the queues grow without bound), prompts lognormal around 300 tokens (sigma 0.6,
// 16..2048), outputs around 150 (sigma 0.4, 16..512), seed 1; least outstanding tokens
// dispatch; max_batch 32, token budget 512 with chunked prefill; iteration records not kept.
// The graph memo starts empty, so the figure includes every graph built; the run again with
// every cost memoised gives the simulation's own speed (warm_iterations_per_s).
//
// Also the composed cost's error against the exact pipeline for llama-2-7b on an H100 (too
// slow for the unit suite): tests/support/serving.hpp, 10 batches of each kind, without
// grids and with the grids above.
// Figures in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/generator.hpp"
#include "sim/serve/composed_cost.hpp"
#include "sim/serve/metrics.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/serve/simulator.hpp"
#include "tests/support/serving.hpp"

using namespace lightcode;
using namespace lightcode::serve;

namespace {

const ComposedCostOptions kGrids{2, 3, 3};

std::shared_ptr<const hw::System> system_file(const char* name) {
  return std::make_shared<const hw::System>(hw::System::load(
      std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/" + name, hw::profile_named("default")));
}

std::shared_ptr<PipelineIterationCost> pipeline(const char* model,
                                                std::shared_ptr<const hw::System> system) {
  return std::make_shared<PipelineIterationCost>(frontend::builtin_model(model), std::move(system),
                                                 opt::Objective::time,
                                                 sched::default_policies().at("list"));
}

// The process's peak resident set (VmHWM), MiB.
double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  return 0.0;
}

void serve_100k(benchmark::State& state) {
  GeneratorSpec g;
  g.rate_per_s = 25.0;
  g.prompt = std::make_shared<LognormalLengths>(300.0, 0.6, 16, 2048);
  g.output = std::make_shared<LognormalLengths>(150.0, 0.4, 16, 512);
  g.count = 100'000;
  g.seed = 1;
  const std::vector<Request> requests = generate_requests(g);
  const std::vector<std::shared_ptr<const hw::System>> systems{system_file("gpu.yaml"),
                                                               system_file("gpu_phu.yaml")};
  int64_t iterations = 0, graphs = 0;
  double seconds = 0.0, p99_ttft = 0.0;
  ServeSpec spec;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<PipelineIterationCost>> pipelines;
    spec = ServeSpec{};
    spec.keep_iterations = false;
    spec.dispatch = make_least_outstanding_tokens();
    for (const auto& system : systems) {
      pipelines.push_back(pipeline("gpt2", system));
      ReplicaSpec r;
      // Room for every request at once: the seed systems' HBM gives no capacity to derive it.
      r.kv_capacity_tokens = 262'144;
      r.batching = std::make_shared<ContinuousBatching>(32, 512);
      r.cost = std::make_shared<ComposedIterationCost>(pipelines.back(), kGrids);
      spec.replicas.push_back(r);
    }
    const ServeResult result = simulate_serving(requests, spec);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    iterations = result.iteration_count;
    graphs = 0;
    for (const auto& p : pipelines) graphs += p->misses();
    p99_ttft = summarise(result, spec, {}).ttft_s.p99;
    benchmark::ClobberMemory();
  }
  state.counters["requests"] = static_cast<double>(requests.size());
  state.counters["iterations"] = static_cast<double>(iterations);
  state.counters["iterations_per_s"] = static_cast<double>(iterations) / seconds;
  state.counters["graphs_built"] = static_cast<double>(graphs);
  state.counters["p99_ttft_ms"] = p99_ttft * 1e3;
  state.counters["peak_rss_mib"] = peak_rss_mib();
  // The same run again, every cost memoised: the simulation's own speed (not timed above).
  const auto t0 = std::chrono::steady_clock::now();
  const ServeResult again = simulate_serving(requests, spec);
  state.counters["warm_iterations_per_s"] =
      static_cast<double>(again.iteration_count) /
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void composed_error_llama(benchmark::State& state) {
  const auto system = system_file("h100_sxm.yaml");
  const auto exact = pipeline("llama-2-7b", system);
  const char* names[] = {"decodes", "one_chunk", "two_chunks"};
  const test::BatchKind kinds[] = {test::BatchKind::decodes, test::BatchKind::one_chunk,
                                   test::BatchKind::two_chunks};
  const ComposedCostOptions options = state.range(0) == 0 ? ComposedCostOptions{} : kGrids;
  for (auto _ : state) {
    const ComposedIterationCost composed(pipeline("llama-2-7b", system), options);
    for (int k = 0; k < 3; ++k) {
      const test::CostError e =
          test::cost_error(composed, *exact, test::random_batches(kinds[k], 10, 17));
      state.counters[std::string(names[k]) + "_time_max_pct"] = 100.0 * e.max_time;
      state.counters[std::string(names[k]) + "_time_mean_pct"] = 100.0 * e.mean_time;
      state.counters[std::string(names[k]) + "_energy_max_pct"] = 100.0 * e.max_energy;
    }
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(serve_100k)->Iterations(1)->Unit(benchmark::kSecond);
// Arg 0: exact (no grids); 1: grids 2/3/3.
BENCHMARK(composed_error_llama)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
