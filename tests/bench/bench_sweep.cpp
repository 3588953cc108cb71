// Sweep budget (issue: studies): a 1,000-point GPT-2 prefill sweep at analytical fidelity
// finishes in under 60 s with -j 2 on the 2-core machine: one worker process per point,
// each writing its result as it finishes, the results file assembled at the end. The same
// sweep in the default profile, every point placed by the joint search (sim/joint), in under
// 120 s (issue 15).
// Points per second in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "sim/sweep/sweep_runner.hpp"

using namespace lightcode;

namespace {

void sweep_1000(benchmark::State& state, const char* profile, const char* systems) {
  const std::string dir = std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/" + systems;
  const std::string scenario = "/tmp/lightcode_bench_sweep_" + std::to_string(::getpid()) + ".yaml";
  // 2 systems x 2 objectives x 250 lengths = 1000 GPT-2 prefill points.
  std::ofstream(scenario) << "model: gpt2\nstage: prefill\nprofile: " << profile << "\nfidelity: analytical\nsweep:\n"
                          << "  system: [" << dir
                          << "cpu_phu.yaml, " << dir << "gpu_phu.yaml]\n  objective: [time, energy]\n"
                          << "  sequence_length: {start: 8, stop: 2000, step: 8}\n";
  const sweep::Scenario s = sweep::load_scenario(scenario);
  sweep::SweepOptions o;
  o.jobs = static_cast<int>(state.range(0));
  o.output = "/tmp/lightcode_bench_sweep_" + std::to_string(::getpid()) + ".h5";
  size_t points = 0;
  for (auto _ : state) {
    const sweep::SweepOutcome r = sweep::run_sweep(s, o);
    points = r.points;
    if (r.failed) state.SkipWithError("points failed");
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["points_per_s"] = benchmark::Counter(static_cast<double>(points) * static_cast<double>(state.iterations()),
                                                      benchmark::Counter::kIsRate);
  std::remove(scenario.c_str());
  std::remove(o.output.c_str());
}

}  // namespace

BENCHMARK_CAPTURE(sweep_1000, lightcode, "lightcode", "lightcode/")
    ->Arg(2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK_CAPTURE(sweep_1000, default_joint, "default", "")
    ->Arg(2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
