// Fusion rules (sim/ir/fusion.hpp) on real graphs: the built-in models and their TVM graphs get
// the same groups; a Llama layer gets its norms, rotary embeddings, attention, activation,
// horizontal and epilogue GEMMs; every group is convex and stays inside one subgraph.
#include <doctest/doctest.h>

#include <map>
#include <utility>
#include <string>
#include <vector>

#include "frontend/load_model.hpp"
#include "sim/ir/fusion.hpp"
#include "hw_models/system.hpp"
#include "sim/core/config.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

ir::Graph load(const std::string& model, int64_t length) {
  frontend::ModelRequest r;
  r.model = model;
  r.length = length;
  return frontend::load_model(r);
}

std::vector<ir::FusedKernel> all_groups(const ir::Graph& g) {
  std::vector<const ir::FusionRule*> rules;
  for (const ir::FusionRule& r : ir::fusion_rules()) rules.push_back(&r);
  return ir::match_fusions(g, rules);
}

// Each group as its rule and its members' kinds, in order: comparable across graphs whose
// node names and ids differ.
std::vector<std::string> signatures(const ir::Graph& g,
                                    const std::vector<ir::FusedKernel>& groups) {
  std::vector<std::string> out;
  for (const ir::FusedKernel& k : groups) {
    std::string s(k.rule);
    for (ir::NodeId m : k.members) s += " " + g.node(m).kind_name;
    out.push_back(s);
  }
  return out;
}

std::map<std::string, int> per_rule(const std::vector<ir::FusedKernel>& groups) {
  std::map<std::string, int> n;
  for (const ir::FusedKernel& k : groups) ++n[std::string(k.rule)];
  return n;
}

}  // namespace

TEST_CASE("the built-in Llama-2-7B and GPT-2 get the same fused groups as their TVM graphs") {
  struct Pair {
    std::string builtin, tvm;
    int64_t length;
  };
  for (const Pair& p : {Pair{"gpt2", "gpt2_prefill_seq5_graph.json", 5}}) {
    if (!test::have_external(test::tvm_graph(p.tvm))) return;
    const ir::Graph a = load(p.builtin, p.length);
    const ir::Graph b = load(test::tvm_graph(p.tvm), p.length);
    CAPTURE(p.builtin);
    CHECK(signatures(a, all_groups(a)) == signatures(b, all_groups(b)));
  }
  // The TVM Llama graph is float32 (no casts around the norm); the built-in one in float32 too.
  frontend::ModelRequest r;
  r.model = test::tvm_graph("llama2_7b_prefill_seq6_graph.json");
  r.length = 6;
  const ir::Graph tvm = frontend::load_model(r);
  const auto tvm_groups = all_groups(tvm);
  const auto counts = per_rule(tvm_groups);
  CHECK(counts.at("attention") == 32);
  CHECK(counts.at("rope") == 96);  // q, k, and both as one kernel
  CHECK(counts.at("norm") == 65);
  CHECK(counts.at("horizontal_gemm") == 64);
  CHECK(counts.at("activation") == 32);
  CHECK(counts.at("gemm_epilogue") == 160);
}

TEST_CASE(
    "a Llama layer: RMSNorm with its casts, q/k/v and gate/up, rotary, attention, SiLU*up, "
    "epilogues") {
  const ir::Graph g = load("llama-2-7b", 64);
  const auto groups = all_groups(g);
  const auto counts = per_rule(groups);
  CHECK(counts.at("norm") == 2 * 32 + 1);
  CHECK(counts.at("rope") == 3 * 32);  // q, k, and both as one kernel (vLLM's rotary_embedding)
  CHECK(counts.at("attention") == 32);
  CHECK(counts.at("horizontal_gemm") == 2 * 32);
  CHECK(counts.at("activation") == 32);
  // scores + mask, o_proj + residual, gate + SiLU*up, up + *SiLU, down + residual.
  CHECK(counts.at("gemm_epilogue") == 5 * 32);
  for (const ir::FusedKernel& k : groups) {
    CAPTURE(g.node(k.anchor).name);
    if (k.rule == "norm") {
      // cast, power, mean, add, rsqrt, multiply, cast, multiply; the final norm also takes the
      // last residual add (and the view before it), which nothing else reads.
      CHECK(k.members.size() == (g.node(k.anchor).name == "model.norm.variance" ? 10 : 8));
      CHECK(k.outputs.size() == 1);
    }
    if (k.rule == "horizontal_gemm") {
      CHECK((k.products == 3 || k.products == 2));
      CHECK(k.n == (k.products == 3 ? 3 * 4096 : 2 * 11008));
      CHECK(k.m == 64);
      CHECK(k.k == 4096);
    }
    if (k.rule == "attention") {
      CHECK(k.causal);
      CHECK(k.batch == 32);
      CHECK(k.m == 64);
      CHECK(k.n == 64);
      CHECK(k.k == 128);
      // No [T, T] result leaves the kernel.
      for (const ir::TensorType& t : k.outputs) CHECK(t.shape.back() == 128);
    }
  }
}

TEST_CASE("encoders: attention without a causal mask, and the same rules find their kernels") {
  struct Encoder {
    const char* model;
    int64_t tokens;
  };
  for (const Encoder& e : {Encoder{"bert-base", 128}, Encoder{"deit-base", 197}}) {
    CAPTURE(e.model);  // (a struct: clang cannot capture a structured binding in CAPTURE)
    const int64_t tokens = e.tokens;
    const ir::Graph g = load(e.model, tokens);
    const auto groups = all_groups(g);
    const auto counts = per_rule(groups);
    CHECK(counts.at("attention") == 12);
    CHECK(counts.at("norm") == 25);  // two per layer, and the embeddings' (bert) or the final one (deit)
    CHECK(counts.at("horizontal_gemm") == 12);
    CHECK(counts.at("activation") == 12);
    for (const ir::FusedKernel& k : groups) {
      if (k.rule != "attention") continue;
      CHECK(!k.causal);
      CHECK(k.m == tokens);
      CHECK(k.n == tokens);
    }
  }
}

TEST_CASE(
    "every group is convex and a partition that keeps groups together leaves each in one "
    "subgraph") {
  for (const std::string model : {"gpt2", "llama-2-7b"}) {
    CAPTURE(model);
    const ir::Graph g = load(model, 8);
    const auto groups = all_groups(g);
    REQUIRE(!groups.empty());
    const auto uses = g.consumers();
    for (const ir::FusedKernel& k : groups) {
      std::vector<uint8_t> in(g.size(), 0), seen(g.size(), 0);
      for (ir::NodeId m : k.members) in[static_cast<size_t>(m)] = 1;
      // Forward from every outside reader of a member: reaching a member again is a cycle.
      std::vector<ir::NodeId> todo;
      for (ir::NodeId m : k.members) {
        for (const auto& u : uses[static_cast<size_t>(m)]) {
          if (!in[static_cast<size_t>(u.consumer)]) todo.push_back(u.consumer);
        }
      }
      bool back = false;
      while (!todo.empty() && !back) {
        const ir::NodeId x = todo.back();
        todo.pop_back();
        if (seen[static_cast<size_t>(x)]) continue;
        seen[static_cast<size_t>(x)] = 1;
        for (const auto& u : uses[static_cast<size_t>(x)]) {
          back = back || in[static_cast<size_t>(u.consumer)];
          todo.push_back(u.consumer);
        }
      }
      CAPTURE(g.node(k.anchor).name);
      CHECK(!back);
    }
    opt::Together together;
    for (const ir::FusedKernel& k : groups) together.push_back(k.members);
    const opt::Partition plain = opt::partition(g);
    const opt::Partition kept = opt::partition(g, together);
    int split_plain = 0;
    for (const ir::FusedKernel& k : groups) {
      const int32_t s = kept.subgraph_of[static_cast<size_t>(k.members.front())];
      bool one = true, one_plain = true;
      for (ir::NodeId m : k.members) {
        one = one && kept.subgraph_of[static_cast<size_t>(m)] == s;
        one_plain = one_plain && plain.subgraph_of[static_cast<size_t>(m)] ==
                                     plain.subgraph_of[static_cast<size_t>(k.members.front())];
      }
      CHECK(one);
      split_plain += one_plain ? 0 : 1;
    }
    CHECK(split_plain > 0);  // without the ties some group would be cut: the test sees them bind
    CHECK(kept.count < plain.count);
  }
}

namespace {

// x [64, 4096] x W [4096, 4096] + r: a dense whose output only the add reads.
ir::Graph dense_add() {
  ir::Graph g;
  auto input = [&](const char* name, ir::Shape s) { return g.add(test::memory(name, s)); };
  const ir::NodeId x = input("x", ir::Shape{64, 4096});
  const ir::NodeId w = input("w", ir::Shape{4096, 4096});
  const ir::NodeId r = input("r", ir::Shape{64, 4096});
  auto op = [&](const char* kind, std::vector<ir::Input> in) {
    ir::Node n;
    n.kind = ir::parse_op_kind(kind);
    n.kind_name = kind;
    n.name = kind;
    n.inputs = std::move(in);
    n.outputs = {ir::TensorType{ir::Shape{64, 4096}, ir::DType::float16}};
    return g.add(std::move(n));
  };
  const ir::NodeId d = op("dense", {{x, 0}, {w, 0}});
  const ir::NodeId a = op("add", {{d, 0}, {r, 0}});
  g.add_head({a, 0});
  g.validate();
  return g;
}

// The H100 SXM with the seed's photonic core beside it, the PHU's conversions at `dac_pj` per
// sample: only the GPU and the PHU compute.
hw::System gpu_phu(const std::string& dac_pj) {
  const std::string text =
      "name: GPU+PHU\nunits:\n  gpu: {from: ../hardware/h100_sxm.yaml}\n"
      "  phu: {from: ../hardware/phu_lightcode.yaml, dac: {energy_per_sample: " + dac_pj + " pJ}}\n"
      "memory:\n  hbm: {from: ../hardware/hbm3.yaml}\n  sram: {from: ../hardware/sram_seed.yaml}\n"
      "links:\n  - {src: hbm, dst: gpu}\n  - {src: gpu, dst: gpu}\n"
      "  - {src: hbm, dst: sram, latency: 100 ns, bandwidth: 3.35 TB/s, energy_per_bit: 1.625 pJ/bit}\n"
      "  - {src: sram, dst: phu, latency: 10 ns, bandwidth: 200 GB/s, energy_per_bit: 0.4375 pJ/bit}\n"
      "  - {src: sram, dst: gpu, latency: 1 us, bandwidth: 64 GB/s, energy_per_bit: 0.4375 pJ/bit}\n";
  return hw::System::from_config(ConfigNode::parse(text, "gpu_phu_test.yaml", test::source_dir() + "/configs/systems"),
                                 hw::profile_named("default"));
}

struct Outcome {
  std::vector<std::string> tasks;  // "<name>@<unit>"
};

Outcome place_dense_add(const hw::System& sys, opt::Objective objective) {
  const ir::Graph g = dense_add();
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::TaskGraph tg = opt::expand(stacks, part, opt::place(stacks, part, objective));
  Outcome o;
  for (const opt::Task& t : tg.tasks) {
    if (t.kind == ir::OpKind::memory || t.kind == ir::OpKind::sram_split || t.kind == ir::OpKind::sram_merge) continue;
    o.tasks.push_back(t.name + "@" + sys.unit(t.unit).name);
  }
  return o;
}

}  // namespace

TEST_CASE("phu dense + gpu add against a fused gpu dense_add: each wins under some parameters, and is picked") {
  // Conversions almost free: the photonic product saves the energy of the GPU's MACs and the add
  // follows on the GPU. Conversions dear: the GPU's GEMM with the add in its epilogue.
  const Outcome cheap = place_dense_add(gpu_phu("0.001"), opt::Objective::energy);
  CHECK(cheap.tasks == std::vector<std::string>{"dense/mm0@phu", "add@gpu"});
  const Outcome dear = place_dense_add(gpu_phu("1000"), opt::Objective::energy);
  CHECK(dear.tasks == std::vector<std::string>{"dense/gemm_epilogue@gpu"});
  // Time: the GPU's fused kernel.
  CHECK(place_dense_add(gpu_phu("0.001"), opt::Objective::time).tasks ==
        std::vector<std::string>{"dense/gemm_epilogue@gpu"});
}
