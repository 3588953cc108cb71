#pragma once
// What the graph fuzz targets (TVM JSON, ONNX) do with a graph a frontend accepted: summarise
// it and, when small, place and schedule it end to end on the seed CPU/PHU system (lightcode
// profile, with its input rule) and the seed GPU system (default profile), as
// sim/sweep/run_point.cpp does, under every scheduling policy; every figure must be in range.
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/ir/metrics.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace lightcode::fuzz {

inline constexpr size_t kMaxOptimizedNodes = 200;

inline const hw::System& seed_cpu_phu() {
  static const hw::System s = hw::System::load(
      source_dir() + "/configs/systems/lightcode/cpu_phu.yaml", hw::profile_named("lightcode"));
  return s;
}
inline const hw::System& seed_gpu() {
  static const hw::System s =
      hw::System::load(source_dir() + "/configs/systems/gpu.yaml", hw::profile_named("default"));
  return s;
}

inline void check_schedule(const opt::TaskGraph& tasks, const sched::Schedule& schedule,
                           const std::string& what) {
  require(schedule.slots.size() == tasks.tasks.size(), what + ": slots do not match tasks");
  require(schedule.makespan >= Time::zero(), what + ": negative makespan");
  for (const sched::Slot& slot : schedule.slots) {
    require(slot.start >= Time::zero() && slot.end >= slot.start && slot.end <= schedule.makespan,
            what + ": a slot outside [0, makespan]");
  }
  for (const opt::Task& t : tasks.tasks) require_cost(t.cost, what + ": task " + t.name);
}

inline void place_and_schedule(const ir::Graph& graph, const hw::System& system) {
  const std::string what = "graph on " + system.name();
  const opt::StackedGraph stacks(graph, system);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  require(placement.choice.size() == graph.size(), what + ": placement does not cover the graph");
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  const std::vector<int> instances = sched::unit_instances(system);
  for (const auto& policy : sched::default_policies().all()) {
    check_schedule(tasks, sched::schedule(tasks, instances, *policy),
                   what + " (" + std::string(policy->name()) + ")");
  }
}

// Load the systems once, outside the timed inputs (LLVMFuzzerInitialize).
inline void load_graph_systems() {
  seed_cpu_phu();
  seed_gpu();
}

inline void exercise_graph(const ir::Graph& g) {
  const ir::GraphSummary s = ir::summarize(g);
  require(s.nodes == g.size(), "summary node count");
  require(s.macs >= 0 && s.flops >= 0, "negative MACs or FLOPs");
  if (g.size() >= kMaxOptimizedNodes) return;
  ir::Graph quirk = g;  // the lightcode profile's input rule, as run_point uses it
  quirk.apply_input_rule(ir::InputTypeRule::entry0);
  place_and_schedule(quirk, seed_cpu_phu());
  place_and_schedule(g, seed_gpu());
}

}  // namespace lightcode::fuzz
