#include "frontend/models/module_graphs.hpp"

#include <algorithm>
#include <string>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/transformer_blocks.hpp"
#include "sim/core/error.hpp"

namespace lightcode::frontend {

using detail::GraphEmitter;
using detail::Value;
using ir::DType;
using ir::Shape;

const std::vector<LlamaModule>& llama_modules() {
  static const std::vector<LlamaModule> all{
      LlamaModule::emb,         LlamaModule::input_layernorm, LlamaModule::attn_pre_proj,
      LlamaModule::attn_rope,   LlamaModule::attn_post_proj,  LlamaModule::post_attention_layernorm,
      LlamaModule::mlp_up_proj, LlamaModule::mlp_act,         LlamaModule::mlp_down_proj,
      LlamaModule::add};
  return all;
}

std::string_view llama_module_name(LlamaModule m) {
  switch (m) {
    case LlamaModule::emb:
      return "emb";
    case LlamaModule::input_layernorm:
      return "input_layernorm";
    case LlamaModule::attn_pre_proj:
      return "attn_pre_proj";
    case LlamaModule::attn_rope:
      return "attn_rope";
    case LlamaModule::attn_post_proj:
      return "attn_post_proj";
    case LlamaModule::post_attention_layernorm:
      return "post_attention_layernorm";
    case LlamaModule::mlp_up_proj:
      return "mlp_up_proj";
    case LlamaModule::mlp_act:
      return "mlp_act";
    case LlamaModule::mlp_down_proj:
      return "mlp_down_proj";
    case LlamaModule::add:
      return "add";
  }
  return "?";
}

namespace {

// llama_builder.cpp's rotary: q * cos + rotate_half(q) * sin on [1, heads, T, hd].
Value rotary(GraphEmitter& e, Value v, Value cos, Value sin, int64_t hd) {
  const Value x2 = e.strided_slice(v, 3, hd / 2, hd, "x2");
  const Value x1 = e.strided_slice(v, 3, 0, hd / 2, "x1");
  const Value rotated = e.concatenate(e.unary("negative", x2, "negative"), x1, 3, "rotate_half");
  return e.add(e.multiply(v, cos, "cos"), e.multiply(rotated, sin, "sin"), "rope");
}

}  // namespace

ir::Graph llama_module_graph(LlamaModule m, const LlamaShape& s) {
  const int64_t t = s.tokens, h = s.hidden;
  const int64_t hd = s.hidden / s.heads;
  // Rank 0's widths, as the sharded model builder takes them.
  const RankWidths mine = rank_widths(s.heads, s.kv_heads, s.intermediate, s.vocab, Parallelism{s.tensor_parallel, 0, 1, 0});
  const int64_t heads = mine.heads, kv_heads = mine.kv_heads, inner = mine.intermediate;
  GraphEmitter e(s.dtype, 64);
  e.set_scope(std::string(llama_module_name(m)));
  switch (m) {
    case LlamaModule::emb: {
      const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
      e.output(detail::embed(e, e.param("weight", Shape{s.vocab, h}), ids));
      break;
    }
    case LlamaModule::input_layernorm:
    case LlamaModule::post_attention_layernorm:
      e.output(detail::norm(e, NormType::rmsnorm, e.input("hidden", Shape{1, t, h}, s.dtype)));
      break;
    case LlamaModule::attn_pre_proj: {
      const Value x = e.input("hidden", Shape{t, h}, s.dtype);
      e.output(e.dense(x, e.param("q_proj.weight", Shape{heads * hd, h}), "q_proj"));
      e.output(e.dense(x, e.param("k_proj.weight", Shape{kv_heads * hd, h}), "k_proj"));
      e.output(e.dense(x, e.param("v_proj.weight", Shape{kv_heads * hd, h}), "v_proj"));
      break;
    }
    case LlamaModule::attn_rope: {
      const Value cos = e.param("cos", Shape{1, 1, t, hd});
      const Value sin = e.param("sin", Shape{1, 1, t, hd});
      const Value q4 =
          e.reshape(e.input("q", Shape{t, heads * hd}, s.dtype), Shape{1, t, heads, hd});
      const Value k4 =
          e.reshape(e.input("k", Shape{t, kv_heads * hd}, s.dtype), Shape{1, t, kv_heads, hd});
      e.output(rotary(e, e.transpose(q4, {0, 2, 1, 3}), cos, sin, hd));
      e.output(rotary(e, e.transpose(k4, {0, 2, 1, 3}), cos, sin, hd));
      break;
    }
    case LlamaModule::attn_post_proj: {
      const Value x = e.input("context", Shape{t, heads * hd}, s.dtype);
      e.output(e.dense(x, e.param("o_proj.weight", Shape{h, heads * hd}), "o_proj"));
      break;
    }
    case LlamaModule::mlp_up_proj: {
      const Value x = e.input("hidden", Shape{t, h}, s.dtype);
      e.output(e.dense(x, e.param("gate_proj.weight", Shape{inner, h}), "gate_proj"));
      e.output(e.dense(x, e.param("up_proj.weight", Shape{inner, h}), "up_proj"));
      break;
    }
    case LlamaModule::mlp_act: {
      const Value gate = e.input("gate", Shape{1, t, inner}, s.dtype);
      const Value up = e.input("up", Shape{1, t, inner}, s.dtype);
      e.output(e.multiply(detail::activation(e, Activation::silu, gate), up, "gate_up"));
      break;
    }
    case LlamaModule::mlp_down_proj: {
      const Value x = e.input("act", Shape{t, inner}, s.dtype);
      e.output(e.dense(x, e.param("down_proj.weight", Shape{h, inner}), "down_proj"));
      break;
    }
    case LlamaModule::add:
      e.output(e.add(e.input("residual", Shape{1, t, h}, s.dtype),
                     e.input("hidden", Shape{1, t, h}, s.dtype), "residual"));
      break;
  }
  return e.finish("llama module " + std::string(llama_module_name(m)));
}

bool llama_module_kernel(LlamaModule m, const ir::Graph& g, ir::FusedKernel& out) {
  out = ir::FusedKernel{};
  switch (m) {
    case LlamaModule::attn_pre_proj:
    case LlamaModule::mlp_up_proj:
      out.cls = ir::KernelClass::gemm;
      out.rule = "horizontal_gemm";
      break;
    case LlamaModule::attn_post_proj:
    case LlamaModule::mlp_down_proj:
      out.cls = ir::KernelClass::gemm;
      out.rule = "gemm_epilogue";
      break;
    case LlamaModule::input_layernorm:
    case LlamaModule::post_attention_layernorm:
      out.cls = ir::KernelClass::norm;
      out.rule = "norm";
      break;
    case LlamaModule::attn_rope:
      out.cls = ir::KernelClass::rope;
      out.rule = "rope";
      break;
    case LlamaModule::mlp_act:
      out.cls = ir::KernelClass::activation;
      out.rule = "activation";
      break;
    case LlamaModule::emb:
    case LlamaModule::add:
      return false;
  }
  for (size_t i = 0; i < g.size(); ++i) {
    const ir::Node& n = g.node(static_cast<ir::NodeId>(i));
    if (n.kind == ir::OpKind::memory) {
      for (const ir::TensorType& t : n.outputs) out.inputs.push_back(t);
      continue;
    }
    out.members.push_back(static_cast<ir::NodeId>(i));
    if (ir::is_matrix_product(n.kind)) {
      ++out.products;
      out.anchor = static_cast<ir::NodeId>(i);
      out.dtype = n.input_type(0).dtype;
      out.batch = 1;
      out.k = n.input_type(0).shape.back();
      out.n += n.output().shape.back();
      out.m = n.output().shape.elements() / n.output().shape.back();
    } else if (n.kind != ir::OpKind::nop && n.kind != ir::OpKind::reshape) {
      out.element_ops.push_back(ir::ElementOp{
          n.kind, std::max(n.output().shape.elements(),
                           n.input_types.empty() ? 0 : n.input_type(0).shape.elements())});
      if (out.anchor < 0) out.anchor = static_cast<ir::NodeId>(i);
      out.dtype = n.output().dtype;
    }
  }
  for (const ir::Input& head : g.heads())
    out.outputs.push_back(g.node(head.node).outputs[static_cast<size_t>(head.output)]);
  return true;
}

}  // namespace lightcode::frontend
