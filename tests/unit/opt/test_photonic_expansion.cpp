// The photonic expansion plan (sim/opt/photonic_expansion.hpp): its shapes, counts and costs
// on a shipped system, that opt::expand emits exactly it, and that it stages on the system's
// staging memory whatever that memory is called (roles, not names: the seed's CPU/PHU system
// with its memories renamed gives the same tasks and makespan, in both profiles).
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "frontend/load_model.hpp"
#include "hw_models/system.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/photonic_expansion.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/split_product.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

hw::System load(const std::string& name, const char* profile) {
  return hw::System::load(test::system_file(name, profile), hw::profile_named(profile));
}

bool same(const hw::Cost& a, const hw::Cost& b) {
  return a.time == b.time && a.energy.picojoules() == b.energy.picojoules() && a.bytes_read == b.bytes_read &&
         a.bytes_written == b.bytes_written;
}

hw::Cost first_estimate(const hw::HardwareModel& m, const ir::Node& op) {
  return m.estimate(op, m.algorithms(op).ids[0]);
}

// a [2, 3, 4, 5] x b [2, 3, 6, 5] -> [2, 3, 4, 6]: six 2-D products [4, 5] x [6, 5].
const ir::Node kMatmul = test::op("matmul", {{2, 3, 4, 5}, {2, 3, 6, 5}}, {2, 3, 4, 6});

// x, w (graph inputs) -> the batch matmul above (node 2) -> relu, the graph's output (the
// lightcode profile runs a graph output on no unit, so the product is not the output).
ir::Graph one_matmul() {
  ir::Graph g;
  const ir::NodeId x = g.add(test::memory("x", ir::Shape{2, 3, 4, 5}, ir::DType::float32));
  const ir::NodeId w = g.add(test::memory("w", ir::Shape{2, 3, 6, 5}, ir::DType::float32));
  const ir::NodeId mm = g.add(test::wired("matmul", {{x, 0}, {w, 0}}, ir::Shape{2, 3, 4, 6}));
  const ir::NodeId out = g.add(test::wired("relu", {{mm, 0}}, ir::Shape{2, 3, 4, 6}));
  g.add_head({out, 0});
  return g;
}

}  // namespace

TEST_CASE("the expansion of a batch matmul on the PHU: six 2-D products between a split and a merge") {
  const hw::System sys = load("cpu_phu", "default");
  const hw::UnitType phu = sys.find("phu"), sram = sys.find("sram");
  const hw::AlgorithmId algorithm = sys.model(phu).algorithms(kMatmul).ids[0];
  const opt::PhotonicExpansion x = opt::plan_photonic_expansion(sys, kMatmul, phu, algorithm);
  CHECK(x.staging == sram);
  CHECK(x.unit == phu);
  CHECK(x.m == 4);
  CHECK(x.k == 5);
  CHECK(x.n == 6);
  CHECK(x.products == 6);
  CHECK(x.rounds(sys) == 6);  // one core
  CHECK(x.product.kind == ir::OpKind::matrix_matrix);
  CHECK(x.product.input_type(0).shape == ir::Shape{4, 5});
  CHECK(x.product.input_type(1).shape == ir::Shape{6, 5});
  CHECK(x.product.output().shape == ir::Shape{4, 6});
  CHECK(x.split.kind == ir::OpKind::sram_split);
  CHECK(x.merge.kind == ir::OpKind::sram_merge);
  CHECK(x.merge.output().shape == ir::Shape{2, 3, 4, 6});
  // Every cost is the system's own model or transfer.
  CHECK(same(x.product_cost, sys.model(phu).estimate(x.product, algorithm)));
  CHECK(same(x.split_cost, first_estimate(sys.model(sram), x.split)));
  CHECK(same(x.merge_cost, first_estimate(sys.model(sram), x.merge)));
  const ir::TensorType operands{ir::Shape{4 * 5 + 6 * 5}, ir::DType::float32};
  CHECK(same(x.operands_in, sys.transfers().estimate(operands, sram, phu)));
  CHECK(x.operands_in.bytes_read == 50 * 4);
  CHECK(same(x.result_out, sys.transfers().estimate(ir::TensorType{ir::Shape{4, 6}, ir::DType::float32}, phu, sram)));
  // A dense is one product, its batch folded into its rows.
  const ir::Node dense = test::op("dense", {{7, 5}, {6, 5}}, {7, 6});
  CHECK(opt::plan_photonic_expansion(sys, dense, phu, sys.model(phu).algorithms(dense).ids[0]).products == 1);
}

TEST_CASE("under the lightcode profile the expansion's edges carry no data, only their link time") {
  const hw::System sys = load("cpu_phu", "lightcode");
  const hw::UnitType phu = sys.find("phu"), sram = sys.find("sram");
  const opt::PhotonicExpansion x =
      opt::plan_photonic_expansion(sys, kMatmul, phu, sys.model(phu).algorithms(kMatmul).ids[0]);
  CHECK(x.operands_in.bytes_read == 0);
  CHECK(x.result_out.bytes_read == 0);
  CHECK(x.operands_in.energy.picojoules() == 0.0);
  CHECK(x.operands_in.time == sys.transfers().estimate(ir::TensorType{ir::Shape{0}, ir::DType::float32}, sram, phu).time);
  CHECK(x.operands_in.time > Time::zero());
}

TEST_CASE("opt::expand emits the plan: split, one task per product, merge, with the plan's costs") {
  for (const char* profile : {"default", "lightcode"}) {
    CAPTURE(profile);
    const hw::System sys = load("cpu_phu", profile);
    const hw::UnitType phu = sys.find("phu");
    const ir::Graph g = one_matmul();
    const opt::StackedGraph stacks(g, sys);
    const opt::Partition part = opt::partition_for(stacks);
    opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
    opt::force_unit(stacks, placement, 2, phu);
    const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
    const opt::PhotonicExpansion x =
        opt::plan_photonic_expansion(sys, g.node(2), phu, sys.model(phu).algorithms(g.node(2)).ids[0]);
    int split = -1, merge = -1, products = 0;
    for (size_t i = 0; i < tasks.tasks.size(); ++i) {
      const opt::Task& t = tasks.tasks[i];
      if (t.node != 2) continue;
      if (t.kind == ir::OpKind::sram_split) split = static_cast<int>(i);
      if (t.kind == ir::OpKind::sram_merge) merge = static_cast<int>(i);
      if (t.kind != ir::OpKind::matrix_matrix) continue;
      ++products;
      CHECK(t.unit == phu);
      CHECK(same(t.cost, x.product_cost));
      REQUIRE(t.inputs.size() == 1);
      CHECK(t.inputs[0].producer == split);
      CHECK(same(t.inputs[0].transfer, x.operands_in));
    }
    CHECK(products == x.products);
    REQUIRE(split >= 0);
    REQUIRE(merge >= 0);
    CHECK(tasks.tasks[static_cast<size_t>(split)].unit == x.staging);
    CHECK(same(tasks.tasks[static_cast<size_t>(split)].cost, x.split_cost));
    const opt::Task& m = tasks.tasks[static_cast<size_t>(merge)];
    CHECK(m.unit == x.staging);
    CHECK(same(m.cost, x.merge_cost));
    REQUIRE(m.inputs.size() == static_cast<size_t>(x.products));
    for (const opt::TaskInput& in : m.inputs) CHECK(same(in.transfer, x.result_out));
  }
}

// The seed CPU/PHU system with its memories called dram and scratch instead of hbm and sram.
TEST_CASE("roles, not names: renamed memories give the same tasks and makespan in both profiles") {
  frontend::ModelRequest r;
  r.model = "gpt2";
  r.length = 16;
  const ir::Graph g = frontend::load_model(r);
  for (const char* profile : {"default", "lightcode"}) {
    CAPTURE(profile);
    const hw::System shipped = load("cpu_phu", profile);
    std::string text = shipped.config().to_yaml();
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"hbm", "dram"}, {"sram", "scratch"}}) {
      for (const auto& [before, after] : {std::pair<std::string, std::string>{"  " + from + ":", "  " + to + ":"},
                                          {"src: " + from, "src: " + to},
                                          {"dst: " + from, "dst: " + to}}) {
        for (size_t at = text.find(before); at != std::string::npos; at = text.find(before, at + after.size())) {
          text.replace(at, before.size(), after);
        }
      }
    }
    const hw::System renamed = hw::System::from_config(
        ConfigNode::parse(text, "renamed.yaml", test::source_dir() + "/configs/systems"), hw::profile_named(profile));
    REQUIRE(renamed.find("scratch") >= 0);
    REQUIRE(renamed.find("sram") < 0);
    CHECK(renamed.role_unit(hw::Role::staging) == renamed.find("scratch"));
    CHECK(renamed.role_unit(hw::Role::resident) == renamed.find("dram"));
    auto run = [&](const hw::System& sys) {
      const opt::StackedGraph stacks(g, sys);
      const opt::Partition part = opt::partition_for(stacks);
      const opt::TaskGraph tasks = opt::expand(stacks, part, opt::place(stacks, part, opt::Objective::time));
      const sched::Schedule s = sched::schedule(tasks, sched::unit_instances(sys),
                                                sched::default_policies().at(std::string(sys.profile().default_scheduler())));
      return std::make_pair(tasks, s.makespan);
    };
    const auto [a, makespan_a] = run(shipped);
    const auto [b, makespan_b] = run(renamed);
    CHECK(makespan_a == makespan_b);
    REQUIRE(a.tasks.size() == b.tasks.size());
    size_t staged = 0, differ = 0;
    for (size_t i = 0; i < a.tasks.size(); ++i) {
      differ += a.tasks[i].name != b.tasks[i].name || a.tasks[i].unit != b.tasks[i].unit ||
                        !same(a.tasks[i].cost, b.tasks[i].cost)
                    ? 1
                    : 0;
      staged += a.tasks[i].unit == shipped.find("sram") ? 1 : 0;
    }
    CHECK(differ == 0);
    CHECK(staged > 0);  // photonic products were expanded through the staging memory
  }
}
