// The optimizer pipeline on real graphs: subgraph cache, determinism, expansion, schedulers,
// and errors for systems that cannot run a graph.
#include <doctest/doctest.h>

#include "frontend/load_model.hpp"
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

std::string system_path(const std::string& name, const std::string& profile = "default") {
  return test::system_file(name, profile);
}

ir::Graph gpt2(int64_t seq) {
  frontend::ModelRequest r;
  r.model = "gpt2";
  r.length = seq;
  return frontend::load_model(r);
}

}  // namespace

TEST_CASE("identical subgraphs are solved once, and a cache hit places exactly as a fresh solve") {
  const ir::Graph g = gpt2(150);
  for (const hw::Profile* p : {&hw::profile_named("lightcode"), &hw::profile_named("default")}) {
    const hw::Profile& profile = *p;
    for (opt::Objective objective : {opt::Objective::time, opt::Objective::energy, opt::Objective::edp}) {
      CAPTURE(profile.name());
      CAPTURE(opt::objective_name(objective));
      const hw::System sys = hw::System::load(system_path("cpu_phu", std::string(profile.name())), profile);
      const opt::StackedGraph stacks(g, sys);
      const opt::Partition part = opt::partition(g);
      const opt::Placement cached = opt::place(stacks, part, objective, true);
      const opt::Placement fresh = opt::place(stacks, part, objective, false);
      CHECK(cached.choice == fresh.choice);
      CHECK(cached.solved + cached.reused == part.count);
      CHECK(fresh.solved == part.count);
      // Twelve layers: most subgraphs repeat one already solved.
      CHECK(cached.reused > cached.solved);
    }
  }
}

TEST_CASE("GPT-2 partition: articulation cuts, 36 residual and cache-output edges cross them") {
  const ir::Graph g = gpt2(5);
  const opt::Partition part = opt::partition(g);
  CHECK(part.count > 100);
  int crossing = 0;
  for (uint8_t c : part.crossing) crossing += c;
  CHECK(crossing == 36);  // 2 residuals per layer, and each layer's present-key transpose input
  // Every subgraph is self-contained: its nodes' producers are in it or earlier.
  for (size_t i = 0; i < g.size(); ++i) {
    for (const ir::Input& in : g.nodes()[i].inputs) {
      CHECK(part.subgraph_of[static_cast<size_t>(in.node)] <= part.subgraph_of[i]);
    }
  }
}

TEST_CASE("a take moves only the rows it gathers, and weights in the GPU's own HBM move nothing") {
  const ir::Graph g = gpt2(32);
  const hw::System cpu = hw::System::load(system_path("cpu_phu"), hw::profile_named("default"));
  const opt::StackedGraph on_cpu(g, cpu);
  const hw::System gpu = hw::System::load(system_path("h100_sxm"), hw::profile_named("default"));
  const opt::StackedGraph on_gpu(g, gpu);
  int takes = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    const ir::Node& n = g.nodes()[i];
    if (n.kind != ir::OpKind::take) continue;
    ++takes;
    const auto id = static_cast<ir::NodeId>(i);
    CHECK(on_cpu.edge_tensor(id, 0).bytes() == n.output().bytes());  // rows x width, not the table
    CHECK(g.node(n.inputs[0].node).output().bytes() > 100 * n.output().bytes());
    const hw::Cost from_hbm = on_gpu.edge_cost(id, 0, gpu.find("hbm"), gpu.find("gpu"));
    CHECK(from_hbm.time == Time::zero());
    CHECK(from_hbm.energy.picojoules() == 0.0);
  }
  CHECK(takes == 1);  // the token embedding (the positions are a folded constant)
  // The lightcode profile keeps the original's rule: the producer's whole output moves.
  const ir::Graph lg = gpt2(32);
  const hw::System lsys = hw::System::load(system_path("cpu_phu", "lightcode"), hw::profile_named("lightcode"));
  const opt::StackedGraph lstacks(lg, lsys);
  for (size_t i = 0; i < lg.size(); ++i) {
    if (lg.nodes()[i].kind != ir::OpKind::take) continue;
    CHECK(lstacks.edge_tensor(static_cast<ir::NodeId>(i), 0).bytes() ==
          lg.node(lg.nodes()[i].inputs[0].node).output().bytes());
  }
}

TEST_CASE("placement and the whole expansion are deterministic") {
  const ir::Graph g = gpt2(64);
  const hw::System sys = hw::System::load(system_path("gpu_phu"), hw::profile_named("default"));
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition_for(stacks);  // fused groups kept in one subgraph
  const opt::Placement a = opt::place(stacks, part, opt::Objective::energy);
  const opt::TaskGraph ta = opt::expand(stacks, part, a);
  for (int i = 0; i < 3; ++i) {
    const opt::Placement b = opt::place(stacks, part, opt::Objective::energy);
    CHECK(b.choice == a.choice);
    const opt::TaskGraph tb = opt::expand(stacks, part, b);
    REQUIRE(tb.tasks.size() == ta.tasks.size());
    for (size_t k = 0; k < ta.tasks.size(); ++k) CHECK(tb.tasks[k].name == ta.tasks[k].name);
  }
}

TEST_CASE("photonic expansion: split, one 2-D product per batch element, merge, readable ids") {
  const ir::Graph g = gpt2(150);
  const hw::System sys = hw::System::load(system_path("cpu_phu", "lightcode"), hw::profile_named("lightcode"));
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition(g);
  const opt::TaskGraph tasks = opt::expand(stacks, part, opt::place(stacks, part, opt::Objective::time));
  int splits = 0, merges = 0, products = 0;
  for (const opt::Task& t : tasks.tasks) {
    splits += t.kind == ir::OpKind::sram_split;
    merges += t.kind == ir::OpKind::sram_merge;
    products += t.kind == ir::OpKind::matrix_matrix;
  }
  CHECK(splits == 73);
  CHECK(merges == 73);
  CHECK(products == 49 + 24 * 12);  // dense: one product; batch matmul: one per head
  // The first layer's QK^T: 12 heads, named after the node.
  const std::string qk = g.node(50).name;
  int heads = 0;
  for (const opt::Task& t : tasks.tasks) {
    if (t.name.rfind(qk + "/mm", 0) == 0) {
      ++heads;
      CHECK(t.outputs[0].shape == ir::Shape{150, 150});
    }
  }
  CHECK(heads == 12);
}

TEST_CASE("default list schedule: every parent's transfer counts, no barriers") {
  // a -> c, b -> c on two CPU cores: c waits for the later of a and b plus its transfer.
  opt::TaskGraph tg;
  auto task = [](std::string name, int64_t ps) {
    opt::Task t;
    t.name = std::move(name);
    t.unit = 0;
    t.cost.time = Time::ps(ps);
    return t;
  };
  tg.tasks.push_back(task("a", 100));
  tg.tasks.push_back(task("b", 300));
  opt::Task c = task("c", 50);
  hw::Cost ta, tb;
  ta.time = Time::ps(500);  // a's data arrives late
  tb.time = Time::ps(10);
  c.inputs = {{0, ta}, {1, tb}};
  tg.tasks.push_back(c);
  const sched::Schedule s = sched::schedule(tg, {2}, sched::default_policies().at("list"));
  CHECK(s.slots[0].start.count_ps() == 0);
  CHECK(s.slots[1].start.count_ps() == 0);  // the second core: no barrier between independent tasks
  CHECK(s.slots[1].instance == 1);
  CHECK(s.slots[2].start.count_ps() == 600);  // max(100 + 500, 300 + 10)
  CHECK(s.makespan.count_ps() == 650);
}

TEST_CASE("a system with no unit able to run some op names the op and the system") {
  const ir::Graph g = gpt2(8);
  const auto cfg = ConfigNode::parse(
      "name: PHU only\nunits:\n  phu: {from: ../hardware/phu_lightcode.yaml}\nmemory:\n"
      "  hbm: {from: ../hardware/hbm_seed.yaml}\n  sram: {from: ../hardware/sram_seed.yaml}\n",
      "phu_only.yaml", test::source_dir() + "/configs/systems");
  const hw::System sys = hw::System::from_config(cfg, hw::profile_named("lightcode"));
  try {
    const opt::StackedGraph stacks(g, sys);
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("node 14") != std::string::npos);
    CHECK(msg.find("(nop)") != std::string::npos);
    CHECK(msg.find("system 'PHU only'") != std::string::npos);
  }
}
