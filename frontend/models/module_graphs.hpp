#pragma once
// Test-data generator for kernel validation: one Llama transformer module (the units vLLM runs
// as one kernel each, as the measured reference CSV names them) as a small ir::Graph, lowered
// exactly as the built-in Llama builder lowers it (transformer_blocks.hpp: RMSNorm with its
// casts, SiLU as x * sigmoid(x), the embedding's id wrap and take; the rotary of q and k and the
// q/k/v and gate/up denses reading one input as llama_builder.cpp writes them). Shapes are one
// GPU's share under tensor parallelism: heads, KV heads and the intermediate size divided by
// `tensor_parallel`, by the sharded builder's rule (parallelism.hpp rank_widths: a count it does
// not divide is an error). Graph inputs are the module's activations; weights are parameters.
// Also the FusedKernel a production runtime runs for the module (the whole graph as one group),
// for cost models that are asked about fused kernels directly.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/ir/fusion.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::frontend {

enum class LlamaModule : uint8_t {
  emb,                       // embedding lookup of `tokens` ids
  input_layernorm,           // RMSNorm [T, H]
  attn_pre_proj,             // q, k, v projections reading one input (fused QKV GEMM)
  attn_rope,                 // rotary embedding of q and k
  attn_post_proj,            // o_proj [T, H/tp] x [H, H/tp]
  post_attention_layernorm,  // RMSNorm [T, H]
  mlp_up_proj,               // gate and up projections reading one input (fused gate/up GEMM)
  mlp_act,                   // SiLU(gate) * up
  mlp_down_proj,             // down_proj [T, I/tp] x [H, I/tp]
  add,                       // residual add [T, H]
};

// In the reference CSV's column order (without its `_ms` suffix).
const std::vector<LlamaModule>& llama_modules();
std::string_view llama_module_name(LlamaModule m);

struct LlamaShape {
  int64_t tokens = 0;
  int64_t hidden = 0;        // n_embd
  int64_t intermediate = 0;  // n_expanded_embd
  int64_t heads = 0;         // n_head (whole model)
  int64_t kv_heads = 0;      // n_kv_head (whole model)
  int64_t vocab = 0;
  int64_t tensor_parallel = 1;
  ir::DType dtype = ir::DType::float16;
};

// Throws lightcode::Error when the shape does not divide (heads by tensor_parallel, ...).
ir::Graph llama_module_graph(LlamaModule m, const LlamaShape& s);

// The whole graph of a module as the one fused kernel vLLM runs: class (gemm for the
// projections, norm, rope, activation), external inputs (graph inputs and parameters),
// outputs, element ops, the GEMM shape (a horizontal group's summed N). Returns false for the
// modules that no fusion class covers (add: one primitive op; emb: an id wrap and a take).
bool llama_module_kernel(LlamaModule m, const ir::Graph& graph, ir::FusedKernel& out);

}  // namespace lightcode::frontend
