#pragma once
// Small systems and hand-made task graphs for the SystemC tests (tests/sc): a system from a
// few lines of YAML (units, plus HBM and SRAM, plus links), and tasks priced by the units'
// own cost models, so a test can compare the engine with the models to the picosecond.
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/core/config.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/policy.hpp"
#include "tests/support/paths.hpp"

namespace lightcode::test {

inline constexpr const char* kMemory =
    "memory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n  sram: {from: ../hardware/sram_seed.yaml}\n";

// `units` and `links` are YAML list bodies, indented as under `units:` and `links:`.
inline hw::System system_of(const std::string& units, const std::string& links = "",
                            const hw::Profile& p = hw::profile_named("default")) {
  const std::string text = "name: test\nunits:\n" + units + kMemory + (links.empty() ? "" : "links:\n" + links);
  return hw::System::from_config(ConfigNode::parse(text, "test_system.yaml", source_dir() + "/configs/systems"), p);
}

// One task per op, all on unit type `unit`, no edges between them.
inline opt::TaskGraph independent(const hw::System& sys, hw::UnitType unit, const std::vector<ir::Node>& ops) {
  opt::TaskGraph g;
  for (const ir::Node& n : ops) {
    opt::Task t;
    t.name = n.kind_name;
    t.kind = n.kind;
    t.kind_name = n.kind_name;
    t.unit = unit;
    t.algorithm = sys.model(unit).algorithms(n).ids[0];
    t.cost = sys.model(unit).estimate(n, t.algorithm);
    t.input_types = n.input_types;
    t.outputs = n.outputs;
    g.tasks.push_back(std::move(t));
  }
  return g;
}

inline const sched::SchedulingPolicy& list_policy() { return sched::default_policies().at("list"); }

}  // namespace lightcode::test
