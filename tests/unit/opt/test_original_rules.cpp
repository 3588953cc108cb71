// Two rules of the original's scheduler, read from its code (docs/LIGHTCODE_PROFILE.md), each on
// a small graph where the other reading gives a different schedule:
//  - a graph output is a node no other node reads (lightcode/stacked_graph.py, Graph._get_out),
//    not a JSON head: a head that another node reads runs on its unit, and a node nothing reads
//    occupies none;
//  - ready tasks are placed in the subgraph's node list order (lightcode/graph_transformations.py,
//    _scheduling_dijkstra over get_node_groups(asap=False): the ops with no parent inside the
//    group, then the rest, nearest to a sink first; expanded products before the rest), not in
//    JSON order.
#include <doctest/doctest.h>

#include <string>

#include "hw_models/system.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

struct Planned {
  opt::TaskGraph tasks;
  sched::Schedule schedule;
};

// The lightcode profile's pipeline on `g` and the seed system `system`; `phu` ops forced there.
Planned plan_lightcode(const ir::Graph& g, const std::string& system, const std::vector<ir::NodeId>& phu = {}) {
  const hw::System sys = hw::System::load(test::system_file(system, "lightcode"), hw::profile_named("lightcode"));
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition_for(stacks);
  opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  for (ir::NodeId id : phu) opt::force_unit(stacks, placement, id, sys.find("phu"));
  Planned p{opt::expand(stacks, part, placement), {}};
  p.schedule = sched::schedule(p.tasks, sched::unit_instances(sys), sched::default_policies().at("lightcode"));
  return p;
}

size_t task_named(const opt::TaskGraph& g, const std::string& name) {
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    if (g.tasks[i].name == name) return i;
  }
  FAIL("no task " << name);
  return 0;
}

}  // namespace

TEST_CASE("lightcode profile: a head another node reads runs on its unit, a node nothing reads is the output") {
  // x -> t (transpose, a JSON head, read by r) -> r (relu, read by nobody, not a head).
  ir::Graph g;
  const ir::NodeId x = g.add(test::memory("x", ir::Shape{1, 64, 768}, ir::DType::float32));
  const ir::NodeId t = g.add(test::named(test::wired("transpose", {{x, 0}}, ir::Shape{1, 768, 64}), "t"));
  g.add(test::named(test::wired("relu", {{t, 0}}, ir::Shape{1, 768, 64}), "r"));
  g.add_head({t, 0});
  const Planned p = plan_lightcode(g, "cpu");
  const opt::Task& head = p.tasks.tasks[task_named(p.tasks, "t")];
  const opt::Task& sink = p.tasks.tasks[task_named(p.tasks, "r")];
  CHECK_FALSE(head.off_unit);
  CHECK(head.cost.time > Time::zero());
  const sched::Slot& ran = p.schedule.slots[task_named(p.tasks, "t")];
  CHECK(ran.end - ran.start == head.cost.time);  // it occupied the CPU
  CHECK(sink.off_unit);
  const sched::Slot& output = p.schedule.slots[task_named(p.tasks, "r")];
  CHECK(output.start == output.end);
  // The makespan is the head's time on the CPU (the JSON reading would make it the relu's).
  CHECK(p.schedule.makespan == ran.end);
  CHECK(sink.cost.energy.picojoules() > 0.0);  // an output keeps its energy (the published totals)
}

TEST_CASE("lightcode profile: ready products go in node-list order, not JSON order") {
  // Two products of one input, d1 first in JSON order: d1 -> a1 -> a2 -> out, d2 -> b1 -> out.
  // d2 is the nearer to the sink, so the node list has it first: with one PHU core its products
  // run before d1's.
  ir::Graph g;
  const ir::NodeId x = g.add(test::memory("x", ir::Shape{1, 16, 64}, ir::DType::float32));
  const ir::NodeId w1 = g.add(test::memory("w1", ir::Shape{64, 64}, ir::DType::float32));
  const ir::NodeId w2 = g.add(test::memory("w2", ir::Shape{64, 64}, ir::DType::float32));
  const ir::NodeId d1 = g.add(test::named(test::wired("dense", {{x, 0}, {w1, 0}}, ir::Shape{1, 16, 64}), "d1"));
  const ir::NodeId d2 = g.add(test::named(test::wired("dense", {{x, 0}, {w2, 0}}, ir::Shape{1, 16, 64}), "d2"));
  const ir::NodeId a1 = g.add(test::named(test::wired("relu", {{d1, 0}}, ir::Shape{1, 16, 64}), "a1"));
  const ir::NodeId a2 = g.add(test::named(test::wired("relu", {{a1, 0}}, ir::Shape{1, 16, 64}), "a2"));
  const ir::NodeId b1 = g.add(test::named(test::wired("relu", {{d2, 0}}, ir::Shape{1, 16, 64}), "b1"));
  g.add_head({g.add(test::named(test::wired("add", {{a2, 0}, {b1, 0}}, ir::Shape{1, 16, 64}), "out")), 0});
  const Planned p = plan_lightcode(g, "cpu_phu", {d1, d2});
  const sched::Slot& first = p.schedule.slots[task_named(p.tasks, "d2/mm0")];
  const sched::Slot& second = p.schedule.slots[task_named(p.tasks, "d1/mm0")];
  CHECK(p.tasks.tasks[task_named(p.tasks, "d2/mm0")].rank < p.tasks.tasks[task_named(p.tasks, "d1/mm0")].rank);
  CHECK(first.end <= second.start);  // JSON order would run d1 first
}
