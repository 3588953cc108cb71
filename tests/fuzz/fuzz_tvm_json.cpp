// Fuzz target: TVM graph-executor JSON through frontend::import_tvm_json, as traced and
// re-sized to 7 tokens (traced length detected). An accepted graph is summarised and, when
// small, placed and scheduled end to end on the seed CPU/PHU system (lightcode profile) and
// the seed GPU system (default profile), as sim/sweep/run_point.cpp does.
#include <cstdint>
#include <string>

#include "frontend/tvm/tvm_import.hpp"
#include "hw_models/system.hpp"
#include "sim/ir/metrics.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

namespace {

constexpr size_t kMaxOptimizedNodes = 200;

const hw::System& cpu_phu() {
  static const hw::System s =
      hw::System::load(fuzz::source_dir() + "/configs/systems/lightcode/cpu_phu.yaml", hw::profile_named("lightcode"));
  return s;
}
const hw::System& gpu() {
  static const hw::System s =
      hw::System::load(fuzz::source_dir() + "/configs/systems/gpu.yaml", hw::profile_named("default"));
  return s;
}

void check_schedule(const opt::TaskGraph& tasks, const sched::Schedule& schedule,
                    const std::string& what) {
  fuzz::require(schedule.slots.size() == tasks.tasks.size(), what + ": slots do not match tasks");
  fuzz::require(schedule.makespan >= Time::zero(), what + ": negative makespan");
  for (const sched::Slot& slot : schedule.slots) {
    fuzz::require(slot.start >= Time::zero() && slot.end >= slot.start && slot.end <= schedule.makespan,
                  what + ": a slot outside [0, makespan]");
  }
  for (const opt::Task& t : tasks.tasks) fuzz::require_cost(t.cost, what + ": task " + t.name);
}

void optimize(const ir::Graph& graph, const hw::System& system) {
  const std::string what = "graph on " + system.name();
  const opt::StackedGraph stacks(graph, system);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  fuzz::require(placement.choice.size() == graph.size(),
                what + ": placement does not cover the graph");
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  const std::vector<int> instances = sched::unit_instances(system);
  for (const auto& policy : sched::default_policies().all()) {
    check_schedule(tasks, sched::schedule(tasks, instances, *policy), what + " (" + std::string(policy->name()) + ")");
  }
}

void exercise(const ir::Graph& g) {
  const ir::GraphSummary s = ir::summarize(g);
  fuzz::require(s.nodes == g.size(), "summary node count");
  fuzz::require(s.macs >= 0 && s.flops >= 0, "negative MACs or FLOPs");
  if (g.size() >= kMaxOptimizedNodes) return;
  ir::Graph quirk = g;  // the lightcode profile's input rule, as run_point uses it
  quirk.apply_input_rule(ir::InputTypeRule::entry0);
  optimize(quirk, cpu_phu());
  optimize(g, gpu());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  cpu_phu();  // load the systems once, outside the timed inputs
  gpu();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run(data, size, [](std::string_view text) {
    exercise(frontend::import_tvm_json(text, "<fuzz>/graph.json"));
  });
  fuzz::run(data, size, [](std::string_view text) {
    frontend::TvmImportOptions options;
    options.sequence_length = 7;
    exercise(frontend::import_tvm_json(text, "<fuzz>/graph.json", options));
  });
  return 0;
}
