// The validation's module graphs (frontend/models/module_graphs.hpp): one GPU's share of a
// Llama module, lowered as the built-in Llama lowers it, and its fused kernel.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "frontend/models/module_graphs.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"

using namespace lightcode;
using frontend::LlamaModule;

namespace {

frontend::LlamaShape llama2_7b(int64_t tokens, int64_t tp) {
  frontend::LlamaShape s;
  s.tokens = tokens;
  s.hidden = 4096;
  s.intermediate = 11008;
  s.heads = 32;
  s.kv_heads = 32;
  s.vocab = 32000;
  s.tensor_parallel = tp;
  return s;
}

int count(const ir::Graph& g, ir::OpKind k) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                        [k](const ir::Node& n) { return n.kind == k; }));
}

}  // namespace

TEST_CASE("every module of the reference CSV has a graph, named as the CSV's column") {
  REQUIRE(frontend::llama_modules().size() == 10);
  for (LlamaModule m : frontend::llama_modules()) {
    CAPTURE(std::string(frontend::llama_module_name(m)));
    const ir::Graph g = frontend::llama_module_graph(m, llama2_7b(64, 2));
    g.validate();
    CHECK(g.size() > 1);
  }
}

TEST_CASE("QKV: three denses reading one input, N summed in the fused kernel, weights once") {
  const ir::Graph g = frontend::llama_module_graph(LlamaModule::attn_pre_proj, llama2_7b(128, 4));
  CHECK(count(g, ir::OpKind::dense) == 3);
  ir::FusedKernel k;
  REQUIRE(frontend::llama_module_kernel(LlamaModule::attn_pre_proj, g, k));
  CHECK(k.cls == ir::KernelClass::gemm);
  CHECK(k.products == 3);
  CHECK(k.m == 128);
  CHECK(k.n == 3 * 1024);  // 32 heads / 4 x 128 per projection
  CHECK(k.k == 4096);
  CHECK(ir::total_bytes(k.inputs) == (128 * 4096 + 3 * 1024 * 4096) * 2);
  CHECK(ir::total_bytes(k.outputs) == 3 * 128 * 1024 * 2);
}

TEST_CASE("RMSNorm is the built-in's lowering: fp32 casts, mean, rsqrt, weight") {
  const ir::Graph g = frontend::llama_module_graph(LlamaModule::input_layernorm, llama2_7b(16, 1));
  CHECK(count(g, ir::OpKind::cast) == 2);
  CHECK(count(g, ir::OpKind::mean) == 1);
  CHECK(count(g, ir::OpKind::rsqrt) == 1);
  ir::FusedKernel k;
  REQUIRE(frontend::llama_module_kernel(LlamaModule::input_layernorm, g, k));
  CHECK(k.cls == ir::KernelClass::norm);
  CHECK(ir::total_bytes(k.outputs) == 16 * 4096 * 2);
}

TEST_CASE(
    "the add and the embedding are not a fusion class, shapes that do not divide are errors") {
  ir::FusedKernel k;
  const ir::Graph add = frontend::llama_module_graph(LlamaModule::add, llama2_7b(8, 1));
  CHECK_FALSE(frontend::llama_module_kernel(LlamaModule::add, add, k));
  CHECK(count(add, ir::OpKind::add) == 1);
  CHECK_THROWS_AS(frontend::llama_module_graph(LlamaModule::mlp_act, llama2_7b(8, 3)), Error);
}
