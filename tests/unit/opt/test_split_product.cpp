// A matrix product's rows split across two units: the graph rewrite (split_rows), the
// balanced ratio (balanced_split: closed form and refinement) and forcing the halves onto
// their units, then the whole pipeline on a shipped system.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/split_product.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

ir::Node memory(const std::string& name, ir::Shape shape, ir::MemoryRole role) {
  ir::Node n;
  n.kind = ir::OpKind::memory;
  n.kind_name = "memory";
  n.name = name;
  n.outputs = {ir::TensorType{shape, ir::DType::float32}};
  n.role = role;
  return n;
}

// x [m, k] (input), w [n, k] (parameter) -> dense "fc" [m, n] (node 2), the graph's output.
ir::Graph one_dense(int64_t m, int64_t k, int64_t n) {
  ir::Graph g;
  const ir::NodeId x = g.add(memory("x", ir::Shape{m, k}, ir::MemoryRole::input));
  const ir::NodeId w = g.add(memory("w", ir::Shape{n, k}, ir::MemoryRole::parameter));
  const ir::NodeId fc = g.add(test::named(test::wired("dense", {{x, 0}, {w, 0}}, ir::Shape{m, n}), "fc"));
  g.add_head({fc, 0});
  return g;
}

Time ps_of(const hw::HardwareModel& model, const ir::Node& op) {
  return model.estimate(op, model.algorithms(op).ids[0]).time;
}

// The pipeline of run_point (time objective, list policy), with `forced` nodes put on units.
Time makespan(const ir::Graph& g, const hw::System& sys,
              const std::vector<std::pair<ir::NodeId, hw::UnitType>>& forced) {
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition_for(stacks);
  opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  for (const auto& [node, unit] : forced) opt::force_unit(stacks, placement, node, unit);
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  return sched::schedule(tasks, sched::unit_instances(sys), sched::default_policies().at("list"))
      .makespan;
}

}  // namespace

TEST_CASE("split_rows replaces a dense by two row halves and a concatenate") {
  // x [6, 8], w [5, 8] -> fc [6, 5] -> add with r -> sum; fc and sum are graph outputs.
  ir::Graph g;
  g.set_source("hand-made");
  g.set_input_rule(ir::InputTypeRule::entry0);
  const ir::NodeId x = g.add(memory("x", ir::Shape{6, 8}, ir::MemoryRole::input));
  const ir::NodeId w = g.add(memory("w", ir::Shape{5, 8}, ir::MemoryRole::parameter));
  ir::Node dense = test::named(test::wired("dense", {{x, 0}, {w, 0}}, ir::Shape{6, 5}), "fc");
  dense.attrs = {{"units", "5"}};
  dense.required_bits = 8;
  const ir::NodeId fc = g.add(dense);
  const ir::NodeId r = g.add(memory("r", ir::Shape{6, 5}, ir::MemoryRole::input));
  const ir::NodeId sum =
      g.add(test::named(test::wired("add", {{fc, 0}, {r, 0}}, ir::Shape{6, 5}), "sum"));
  g.add_head({fc, 0});
  g.add_head({sum, 0});
  g.validate();

  const ir::Graph s = opt::split_rows(g, fc, 2);
  s.validate();
  CHECK(s.size() == g.size() + 4);
  CHECK(s.source() == "hand-made");
  CHECK(s.input_rule() == ir::InputTypeRule::entry0);
  const opt::SplitIds ids = opt::split_ids(fc);
  struct Expect {
    ir::NodeId id;
    ir::OpKind kind;
    const char* name;
    ir::Shape output;
  };
  for (const Expect& e : {Expect{ids.slice_a, ir::OpKind::slice, "fc/rows_a_slice", {2, 8}},
                          Expect{ids.rows_a, ir::OpKind::dense, "fc/rows_a", {2, 5}},
                          Expect{ids.slice_b, ir::OpKind::slice, "fc/rows_b_slice", {4, 8}},
                          Expect{ids.rows_b, ir::OpKind::dense, "fc/rows_b", {4, 5}},
                          Expect{ids.concat, ir::OpKind::concatenate, "fc/concat", {6, 5}}}) {
    CAPTURE(e.name);
    const ir::Node& n = s.node(e.id);
    CHECK(n.kind == e.kind);
    CHECK(n.name == e.name);
    CHECK(n.output().shape == e.output);
  }
  CHECK(s.node(ids.slice_a).inputs == std::vector<ir::Input>{{x, 0}});
  CHECK(s.node(ids.slice_a).attr("begin") == "0");
  CHECK(s.node(ids.slice_a).attr("end") == "2");
  CHECK(s.node(ids.slice_b).attr("begin") == "2");
  CHECK(s.node(ids.slice_b).attr("end") == "6");
  CHECK(s.node(ids.concat).attr("axis") == "0");
  for (ir::NodeId half : {ids.rows_a, ids.rows_b}) {
    const ir::Node& n = s.node(half);
    CHECK(n.inputs[1] == ir::Input{w, 0});  // the same weights
    CHECK(n.attr("units") == "5");
    CHECK(n.required_bits == 8);
  }
  CHECK(s.node(ids.rows_a).inputs[0] == ir::Input{ids.slice_a, 0});
  CHECK(s.node(ids.rows_b).inputs[0] == ir::Input{ids.slice_b, 0});
  CHECK(s.node(ids.concat).inputs == std::vector<ir::Input>{{ids.rows_a, 0}, {ids.rows_b, 0}});
  // Later nodes move up by 4; the consumer and both graph outputs read the concatenate.
  CHECK(s.node(r + 4).name == "r");
  const ir::Node& add = s.node(sum + 4);
  CHECK(add.name == "sum");
  CHECK(add.inputs == std::vector<ir::Input>{{ids.concat, 0}, {r + 4, 0}});
  CHECK(s.heads() == std::vector<ir::Input>{{ids.concat, 0}, {sum + 4, 0}});
  CHECK(s.topological_order().size() == s.size());
}

TEST_CASE("split_rows cuts a batch_matmul along its rows and keeps the batch") {
  ir::Graph g;
  const ir::NodeId a = g.add(memory("a", ir::Shape{3, 7, 4}, ir::MemoryRole::input));
  const ir::NodeId b = g.add(memory("b", ir::Shape{3, 5, 4}, ir::MemoryRole::input));
  const ir::NodeId mm =
      g.add(test::named(test::wired("matmul", {{a, 0}, {b, 0}}, ir::Shape{3, 7, 5}), "scores"));
  g.add_head({mm, 0});
  const ir::Graph s = opt::split_rows(g, mm, 3);
  s.validate();
  const opt::SplitIds ids = opt::split_ids(mm);
  CHECK(s.node(ids.slice_b).output().shape == ir::Shape{3, 4, 4});
  CHECK(s.node(ids.slice_b).attr("axis") == "1");
  CHECK(s.node(ids.rows_a).kind == ir::OpKind::matmul);
  CHECK(s.node(ids.rows_a).output().shape == ir::Shape{3, 3, 5});
  CHECK(s.node(ids.rows_b).output().shape == ir::Shape{3, 4, 5});
  CHECK(s.node(ids.concat).output().shape == ir::Shape{3, 7, 5});
}

TEST_CASE("split_rows refuses rows outside the product and nodes that are not products") {
  const ir::Graph g = one_dense(6, 8, 5);
  CHECK(test::error_of([&] { opt::split_rows(g, 2, 0); }) ==
        "row split: node 2 'fc' (dense) has 6 rows: rows_a must be in [1, 5], found 0");
  CHECK(test::error_of([&] { opt::split_rows(g, 2, 6); }) ==
        "row split: node 2 'fc' (dense) has 6 rows: rows_a must be in [1, 5], found 6");
  CHECK(test::error_of([&] { opt::split_rows(g, 0, 1); }) ==
        "row split: node 0 'x' (memory) is not a dense or matmul product");
  CHECK(test::error_of([&] { opt::split_rows(g, 9, 1); }) ==
        "row split: node 9 does not exist (the graph has 3 nodes)");
}

TEST_CASE("force_unit puts a node on a unit and refuses a unit that cannot run it") {
  const hw::System sys =
      hw::System::load(test::system_file("gpu_dota_b"), hw::profile_named("default"));
  const ir::Graph g = one_dense(64, 64, 64);
  const opt::StackedGraph stacks(g, sys);
  opt::Placement placement = opt::place(stacks, opt::partition_for(stacks), opt::Objective::time);
  for (const char* unit : {"phu", "gpu", "cpu"}) {
    opt::force_unit(stacks, placement, 2, sys.find(unit));
    const opt::Candidate& c = stacks.candidate(2, placement.choice[2]);
    CHECK(sys.unit(c.unit).name == unit);
    CHECK(c.group < 0);
  }
  CHECK(test::error_of([&] { opt::force_unit(stacks, placement, 0, sys.find("gpu")); }) ==
        "row split: node 0 'x' (memory) has no single-op candidate on unit 'gpu' of system "
        "'H100-SXM/DOTA-B'");
}

// H100 + DOTA-B (configs/systems/gpu_dota_b.yaml), default profile. The PHU is slower per row
// than the H100 (its rows also cross the 64 GB/s GPU-SRAM link both ways) and must first
// receive the whole weight matrix over the 200 GB/s SRAM-PHU link (1 GiB here: ~5.4 ms), while
// the GPU pays for slicing and concatenating in HBM; a split pays off only when the product is
// large enough to amortise both: [32768, 16384] x [16384, 16384] (~42 ms on the GPU alone).
// (On cpu_dota_b no split helps: the Xeon model takes longer to slice the PHU's rows out of x
// than the PHU takes to run them all.)
TEST_CASE("a dense split between the PHU and the GPU at the balanced ratio finishes sooner") {
  const hw::System sys =
      hw::System::load(test::system_file("gpu_dota_b"), hw::profile_named("default"));
  constexpr int64_t M = 32768, K = 16384, N = 16384;
  const ir::Graph g = one_dense(M, K, N);
  const ir::NodeId fc = 2;
  const hw::UnitType phu = sys.find("phu"), gpu = sys.find("gpu");
  const hw::UnitType hbm = sys.find("hbm"), sram = sys.find("sram");
  const opt::StackedGraph stacks(g, sys);
  const opt::SplitPlan plan = opt::balanced_split(stacks, fc, phu, gpu);

  // The halves by hand, on the routes this system offers: x and w stay in HBM, the GPU slices x
  // (the cheapest slicer); the PHU half gathers its operands on SRAM as the photonic expansion
  // does (split, one operand transfer, product, result back to SRAM, merge) and its result moves
  // on to the GPU, which runs the concatenate.
  const hw::TransferModel& link = sys.transfers();
  auto f32 = [](ir::Shape s) { return ir::TensorType{s, ir::DType::float32}; };
  auto slice_on_gpu = [&](int64_t m) {
    return ps_of(sys.model(gpu), test::op("slice", {{M, K}}, {m, K}));
  };
  auto t_a = [&](int64_t m) {
    const Time slice = link.estimate(f32({M, K}), hbm, gpu).time + slice_on_gpu(m) +
                       link.estimate(f32({m, K}), gpu, sram).time;
    const Time weights = link.estimate(f32({N, K}), hbm, sram).time;
    return std::max(slice, weights) +
           ps_of(sys.model(sram), test::op("split_sram", {{m, K}, {N, K}}, {m, K})) +
           link.estimate(f32({m * K + N * K}), sram, phu).time +
           ps_of(sys.model(phu), test::op("matrix_matrix", {{m, K}, {N, K}}, {m, N})) +
           link.estimate(f32({m, N}), phu, sram).time +
           ps_of(sys.model(sram), test::op("merge_sram", {{m, N}}, {m, N})) +
           link.estimate(f32({m, N}), sram, gpu).time;
  };
  auto t_b = [&](int64_t m) {
    const Time arrive = std::max(link.estimate(f32({M, K}), hbm, gpu).time + slice_on_gpu(m) +
                                     link.estimate(f32({m, K}), gpu, gpu).time,
                                 link.estimate(f32({N, K}), hbm, gpu).time);
    return arrive + ps_of(sys.model(gpu), test::op("dense", {{m, K}, {N, K}}, {m, N})) +
           link.estimate(f32({m, N}), gpu, gpu).time;
  };
  auto ps = [](Time t) { return static_cast<double>(t.count_ps()); };
  const double s_a = (ps(t_a(M)) - ps(t_a(1))) / (M - 1.0), c_a = ps(t_a(1)) - s_a;
  const double s_b = (ps(t_b(M)) - ps(t_b(1))) / (M - 1.0), c_b = ps(t_b(1)) - s_b;
  const double m_star = std::clamp((c_b + s_b * M - c_a) / (s_a + s_b), 1.0, M - 1.0);
  CHECK(plan.slope_a == doctest::Approx(s_a).epsilon(1e-12));
  CHECK(plan.fixed_a == doctest::Approx(c_a).epsilon(1e-12));
  CHECK(plan.slope_b == doctest::Approx(s_b).epsilon(1e-12));
  CHECK(plan.fixed_b == doctest::Approx(c_b).epsilon(1e-12));
  CHECK(plan.closed_form_rows_a == doctest::Approx(m_star).epsilon(1e-12));
  // The refined rows stay within 2% of the closed form; the halves end within 1% of each other.
  CHECK(std::abs(static_cast<double>(plan.rows_a) - m_star) <= 0.02 * m_star);
  CHECK(plan.finish_a == t_a(plan.rows_a));
  CHECK(plan.finish_b == t_b(M - plan.rows_a));
  const double later = ps(std::max(plan.finish_a, plan.finish_b));
  CHECK(std::abs(ps(plan.finish_a) - ps(plan.finish_b)) <= 0.01 * later);

  const Time whole = makespan(g, sys, {});
  const ir::Graph split = opt::split_rows(g, fc, plan.rows_a);
  const opt::SplitIds ids = opt::split_ids(fc);
  const Time halves = makespan(split, sys, {{ids.rows_a, phu}, {ids.rows_b, gpu}});
  CHECK(halves < whole);
  MESSAGE("gpu_dota_b dense [" << M << ", " << K << "] x [" << N << ", " << K << "]: c_a " << c_a
                               << " ps + " << s_a << " ps/row (PHU), c_b " << c_b << " ps + " << s_b
                               << " ps/row (GPU); closed form " << plan.closed_form_rows_a
                               << " rows, refined " << plan.rows_a << " rows to the PHU (finish "
                               << plan.finish_a.count_ps() << " ps vs " << plan.finish_b.count_ps()
                               << " ps); makespan unsplit " << whole.count_ps() << " ps, split "
                               << halves.count_ps() << " ps ("
                               << 100.0 * (1.0 - ps(halves) / ps(whole)) << "% less)");
}

TEST_CASE("balanced_split refuses a unit that cannot run the product and a split onto one unit") {
  const hw::System sys =
      hw::System::load(test::system_file("gpu_dota_b"), hw::profile_named("default"));
  const ir::Graph g = one_dense(64, 64, 64);
  const opt::StackedGraph stacks(g, sys);
  CHECK(test::error_of([&] { opt::balanced_split(stacks, 2, sys.find("gpu"), sys.find("gpu")); }) ==
        "row split: node 2 'fc' (dense) would be split between unit 'gpu' and itself");
  CHECK(test::error_of([&] { opt::balanced_split(stacks, 2, sys.find("hbm"), sys.find("gpu")); }) ==
        "row split: unit 'hbm' cannot run node 2 'fc' (dense)");
}
