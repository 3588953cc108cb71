// Event-engine budget (issue: SystemC engine): at least 1 million tasks per second on one core,
// on a synthetic wide DAG and on llama-2-7b prefill at 4096 tokens, expanded. SystemC
// elaborates once per process, so every iteration forks: the child elaborates and simulates,
// and reports the kernel's run time (sc_start) through a pipe (manual time); elaboration
// (building the modules) is reported beside it as `elaborate_ms`.
// Results in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "frontend/load_model.hpp"
#include "hw_models/system.hpp"
#include "sim/engine/engine.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"

using namespace lightcode;

namespace {

std::string system_path(const char* name) { return std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/" + name; }

struct Timing {
  double run = -1;
  double elaborate = -1;
};

// Seconds the child's kernel ran, and took to elaborate; run < 0 on failure.
Timing simulate_in_child(const opt::TaskGraph& tasks, const hw::System& system, bool contention) {
  int fd[2];
  if (::pipe(fd) != 0) return Timing{};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fd[0]);
    engine::EngineOptions o;
    o.contention = contention;
    const engine::EventResult r = engine::simulate(tasks, system, o, sched::default_policies().at("list"));
    const Timing t{r.run_seconds, r.elaborate_seconds};
    if (::write(fd[1], &t, sizeof t) != sizeof t) ::_exit(1);
    ::_exit(0);
  }
  ::close(fd[1]);
  Timing s;
  if (::read(fd[0], &s, sizeof s) != sizeof s) s = Timing{};
  ::close(fd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return s;
}

void run(benchmark::State& state, const opt::TaskGraph& tasks, const hw::System& system, bool contention) {
  double elaborate = 0;
  for (auto _ : state) {
    const Timing t = simulate_in_child(tasks, system, contention);
    if (t.run < 0) {
      state.SkipWithError("simulation failed");
      return;
    }
    state.SetIterationTime(t.run);
    elaborate += t.elaborate;
  }
  state.counters["elaborate_ms"] = 1e3 * elaborate / static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(tasks.tasks.size()));
  state.counters["tasks"] = static_cast<double>(tasks.tasks.size());
}

// `width` independent chains of `depth` CPU tasks, fanning in to one sink every layer: many
// ready tasks at once on 56 cores, edges between cores through SRAM.
void wide_dag(benchmark::State& state) {
  const hw::System sys = hw::System::load(system_path("h100_sxm_phu.yaml"), hw::profile_named("default"));
  const hw::UnitType cpu = sys.find("cpu");
  const int width = 64, depth = static_cast<int>(state.range(0));
  opt::TaskGraph g;
  hw::Cost work;
  hw::Cost hop = sys.transfers().estimate(ir::TensorType{ir::Shape{1024}, ir::DType::float32}, cpu, cpu);
  for (int d = 0; d < depth; ++d) {
    for (int w = 0; w < width; ++w) {
      opt::Task t;
      t.name = "t";
      t.kind = ir::OpKind::add;
      t.unit = cpu;
      work.time = Time::ps(1000 + 37 * ((d * width + w) % 11));
      t.cost = work;
      if (d > 0) t.inputs = {{static_cast<opt::TaskId>((d - 1) * width + w), hop},
                             {static_cast<opt::TaskId>((d - 1) * width + (w + 1) % width), hop}};
      g.tasks.push_back(std::move(t));
    }
  }
  run(state, g, sys, state.range(1) != 0);
}

void llama_prefill(benchmark::State& state) {
  frontend::ModelRequest r;
  r.model = "llama-2-7b";
  r.length = 4096;
  const ir::Graph graph = frontend::load_model(r);
  const hw::System sys = hw::System::load(system_path("cpu_phu.yaml"), hw::profile_named("default"));
  const opt::StackedGraph stacks(graph, sys);
  const opt::Partition part = opt::partition(graph);
  const opt::TaskGraph tasks = opt::expand(stacks, part, opt::place(stacks, part, opt::Objective::time));
  run(state, tasks, sys, state.range(0) != 0);
}

}  // namespace

BENCHMARK(wide_dag)->Args({1000, 1})->Args({1000, 0})->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(llama_prefill)->Arg(1)->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

BENCHMARK_MAIN();
