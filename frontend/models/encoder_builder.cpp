// Encoders, the workloads photonic-accelerator papers publish on (Lightening-Transformer's
// BERT-base and DeiT-base), lowered with the rules the TVM reference graphs show for GPT-2 and
// Llama (there is no TVM reference encoder graph): nn.Linear is reshape -> dense -> bias add;
// 4-D matmuls flatten to batch_matmul with the right operand transposed; constants fold.
//   bert (BertModel, eager attention, post-norm): word embeddings (a take) plus the folded
//     position and token-type embeddings of the length, LayerNorm; per layer q/k/v with
//     biases, scores divided by sqrt(head_dim) plus the additive padding mask built from the
//     attention_mask input ([1, tokens]: (1 - mask) x min, broadcast over queries), softmax,
//     context, output projection, residual add, LayerNorm; then the MLP (GELU, erf form),
//     residual add, LayerNorm. Output: the last hidden state [1, tokens, hidden] (no pooler,
//     no task head).
//   vit (ViTModel as DeiT-base uses it, pre-norm): the image arrives unfolded into its patches
//     ([1, tokens - 1, channels x patch x patch], an input), so the stride-`patch` convolution
//     is a dense product; the class token is concatenated in front and the position embeddings
//     added; per layer LayerNorm -> attention -> residual, LayerNorm -> MLP -> residual; a final
//     LayerNorm. Output: [1, tokens, hidden] (no classifier). `tokens` is the sequence length:
//     197 for a 224 x 224 image in 16 x 16 patches.
// Neither has a KV cache: prefill only (model_builder.cpp refuses decode).
#include <string>

#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

namespace {

// nn.Linear with bias on [t, in] (flattening a [1, t, in] input first) -> [t, out].
Value linear(GraphEmitter& e, Value in, int64_t out, const std::string& what) {
  const Shape& s = e.shape(in);
  const int64_t width = s[s.rank() - 1];
  const int64_t rows = s.elements() / width;
  const Value flat = s.rank() == 2 ? in : e.reshape(in, Shape{rows, width}, what + ".view");
  const Value y = e.dense(flat, e.param(what + ".weight", Shape{out, width}), what);
  return e.add(y, e.param(what + ".bias", Shape{out}), what + ".bias_add");
}

// Multi-head self-attention over x [1, t, hidden] without a causal mask; `mask` is an additive
// [1, 1, 1, t] padding mask or none. Returns the output projection [1, t, hidden].
Value self_attention(GraphEmitter& e, const ModelConfig& c, Value x, const Value* mask,
                     const std::string& scope, const char* q_name, const char* k_name,
                     const char* v_name, const char* o_name) {
  const Shape& s = e.shape(x);
  const int64_t t = s[1];
  const int64_t hidden = c.hidden_size;
  const int64_t heads = c.num_attention_heads;
  const int64_t hd = c.head_dim();
  e.set_scope(scope);
  auto split_heads = [&](Value v) {  // [t, hidden] -> [heads, t, hd]
    return e.reshape(e.transpose(e.reshape(v, Shape{1, t, heads, hd}), {0, 2, 1, 3}),
                     Shape{heads, t, hd});
  };
  const Value q = split_heads(linear(e, x, hidden, q_name));
  const Value k = split_heads(linear(e, x, hidden, k_name));
  const Value v = split_heads(linear(e, x, hidden, v_name));
  Value scores = e.reshape(e.batch_matmul(q, k, "scores"), Shape{1, heads, t, t});
  scores = e.divide(scores, e.scalar("scale"), "scale");
  if (mask != nullptr) scores = e.add(scores, *mask, "mask");
  const Value probs = e.reshape(e.softmax(scores), Shape{heads, t, t});
  const Value v_t = e.transpose(v, {0, 2, 1});
  Value ctx = e.reshape(e.batch_matmul(probs, v_t, "context"), Shape{1, heads, t, hd});
  ctx = e.transpose(ctx, {0, 2, 1, 3}, "merge_heads");
  return e.reshape(linear(e, e.reshape(ctx, Shape{t, hidden}, "merge_heads.view"), hidden, o_name),
                   Shape{1, t, hidden});
}

// The feed-forward block on x [1, t, hidden] -> [1, t, hidden].
Value feed_forward(GraphEmitter& e, const ModelConfig& c, Value x, const std::string& scope,
                   const char* up_name, const char* down_name) {
  const int64_t t = e.shape(x)[1];
  e.set_scope(scope);
  const Value up =
      e.reshape(linear(e, x, c.intermediate_size, up_name), Shape{1, t, c.intermediate_size});
  const Value act = activation(e, c.hidden_act, up);
  return e.reshape(linear(e, act, c.hidden_size, down_name), Shape{1, t, c.hidden_size});
}

}  // namespace

void build_bert(GraphEmitter& e, const ModelConfig& c, const Step& step) {
  const int64_t t = step.tokens;
  const int64_t hidden = c.hidden_size;
  const DType f = e.float_type();

  const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
  const Value attention_mask = e.input("attention_mask", Shape{1, t}, DType::int64);
  e.set_scope("embeddings.word_embeddings");
  const Value words = embed(e, e.param("weight", Shape{c.vocab_size, hidden}), ids);
  e.set_scope("embeddings");
  // position_ids = arange(t) and token_type_ids = 0 are buffers: their embeddings fold.
  Value x = e.add(words, e.param("position_and_token_type(t)", Shape{1, t, hidden}), "embeddings");
  e.set_scope("embeddings.LayerNorm");
  x = norm(e, c.norm_type, x);
  // get_extended_attention_mask: (1 - mask[:, None, None, :]) x finfo.min.
  e.set_scope("extended_attention_mask");
  const Value m4 = e.reshape(e.cast(attention_mask, f, "cast"), Shape{1, 1, 1, t}, "expand_dims");
  const Value mask =
      e.multiply(e.subtract(e.scalar("one"), m4, "invert"), e.scalar("min"), "to_additive");

  for (int i = 0; i < static_cast<int>(c.num_hidden_layers); ++i) {
    const std::string h = "encoder.layer." + std::to_string(i);
    const Value attn = self_attention(e, c, x, &mask, h + ".attention", "self.query", "self.key",
                                      "self.value", "output.dense");
    e.set_scope(h + ".attention.output");
    x = e.add(attn, x, "residual");
    e.set_scope(h + ".attention.output.LayerNorm");
    x = norm(e, c.norm_type, x);
    const Value ffn = feed_forward(e, c, x, h, "intermediate.dense", "output.dense");
    e.set_scope(h + ".output");
    x = e.add(ffn, x, "residual");
    e.set_scope(h + ".output.LayerNorm");
    x = norm(e, c.norm_type, x);
  }
  e.output(x);
}

void build_vit(GraphEmitter& e, const ModelConfig& c, const Step& step) {
  const int64_t t = step.tokens;
  const int64_t hidden = c.hidden_size;
  const int64_t patch_width = c.num_channels * c.patch_size * c.patch_size;

  const Value patches = e.input("pixel_patches", Shape{1, t - 1, patch_width}, e.float_type());
  e.set_scope("embeddings.patch_embeddings.projection");
  // Conv2d(kernel = stride = patch) on the unfolded image: one product per patch row.
  const Value embedded =
      e.reshape(e.add(e.dense(e.reshape(patches, Shape{t - 1, patch_width}, "view"),
                              e.param("weight", Shape{hidden, patch_width}), "conv"),
                      e.param("bias", Shape{hidden}), "bias_add"),
                Shape{1, t - 1, hidden});
  e.set_scope("embeddings");
  Value x = e.concatenate(e.param("cls_token", Shape{1, 1, hidden}), embedded, 1, "cls");
  x = e.add(x, e.param("position_embeddings(t)", Shape{1, t, hidden}), "positions");

  for (int i = 0; i < static_cast<int>(c.num_hidden_layers); ++i) {
    const std::string h = "encoder.layer." + std::to_string(i);
    e.set_scope(h + ".layernorm_before");
    const Value a_in = norm(e, c.norm_type, x);
    const Value attn = self_attention(e, c, a_in, nullptr, h + ".attention", "attention.query",
                                      "attention.key", "attention.value", "output.dense");
    e.set_scope(h);
    x = e.add(attn, x, "attn_residual");
    e.set_scope(h + ".layernorm_after");
    const Value m_in = norm(e, c.norm_type, x);
    const Value ffn = feed_forward(e, c, m_in, h, "intermediate.dense", "output.dense");
    e.set_scope(h);
    x = e.add(ffn, x, "mlp_residual");
  }
  e.set_scope("layernorm");
  e.output(norm(e, c.norm_type, x));
}

}  // namespace lightcode::frontend::detail
