// The runtime dataset's budget (issue 27): 1 M op records in under 60 s on 2 cores.
// scenarios/dataset_scale.yaml (468 analytical points, 1.04 M op records) written by
// dataset::write_dataset with 2 jobs, as `lightcode dataset ... -j 2` does; counters: the op
// records, op records per second, and the process's peak resident memory (records stream to
// the file, so it does not grow with them). docs/PERFORMANCE.md, "Issue 27: the runtime dataset".
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "sim/dataset/dataset.hpp"

using namespace lightcode;

namespace {

double peak_rss_mib() {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

void dataset_1m(benchmark::State& state) {
  const std::string scenario =
      std::string(LIGHTCODE_BENCH_CONFIGS) + "/../scenarios/dataset_scale.yaml";
  dataset::DatasetOptions o;
  o.out = "/tmp/lightcode_bench_dataset_" + std::to_string(::getpid()) + ".h5";
  o.jobs = static_cast<int>(state.range(0));
  dataset::DatasetSummary s;
  for (auto _ : state) {
    s = dataset::write_dataset(scenario, {}, o);
    if (s.failed) state.SkipWithError("points failed");
    if (s.ops < 1000000) state.SkipWithError("fewer than 1 M op records");
  }
  // Counters are set from integers and plain doubles, never through DoNotOptimize.
  state.counters["op_records"] = static_cast<double>(s.ops);
  state.counters["op_records_per_s"] =
      benchmark::Counter(static_cast<double>(s.ops) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["peak_rss_mib"] = peak_rss_mib();
  state.counters["within_60s"] = s.seconds < 60.0 ? 1.0 : 0.0;
  std::remove(o.out.c_str());
}

}  // namespace

BENCHMARK(dataset_1m)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
