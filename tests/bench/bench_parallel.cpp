// Points over several devices (issue 26's budget): the Llama-2-70B prefill point at tensor
// parallelism 8 on a DGX H100 — rank 0's share built, placed by the joint search, expanded and
// scheduled analytically, its report filled (sweep::run_point, in this process) — in under 50 ms
// per point; also at 2048 tokens, on the DGX A100, and as two pipeline stages of TP 4. Peak RSS
// after them (`peak_rss_mib`). Results in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include "sim/stages/stage.hpp"

using namespace lightcode;

namespace {

void parallel_point(benchmark::State& state, const char* system, int64_t tp, int64_t pp) {
  sweep::PointSpec p;
  p.id = "p0";
  p.model = "llama-2-70b";
  p.stage = Stage::prefill;
  p.sequence_length = state.range(0);
  p.system = std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/" + system;
  p.fidelity = Fidelity::analytical;
  p.tensor_parallel = tp;
  p.pipeline_parallel = pp;
  double makespan = 0.0, communication = 0.0;
  for (auto _ : state) {
    const sweep::PointRun run = sweep::run_point(p);
    makespan = run.result.summary.makespan_s;
    communication = run.result.summary.communication_s;
  }
  state.counters["makespan_ms"] = 1e3 * makespan;
  state.counters["communication_pct"] = makespan > 0.0 ? 100.0 * communication / makespan : 0.0;
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace

BENCHMARK_CAPTURE(parallel_point, llama_2_70b_dgx_h100_tp8, "dgx_h100.yaml", 8, 1)
    ->Arg(128)->Arg(2048)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parallel_point, llama_2_70b_dgx_a100_tp8, "dgx_a100.yaml", 8, 1)
    ->Arg(128)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parallel_point, llama_2_70b_dgx_h100_tp4_pp2, "dgx_h100.yaml", 4, 2)
    ->Arg(128)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
