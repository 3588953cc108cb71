#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

Value embed(GraphEmitter& e, Value table, Value ids) {
  const Value negative = e.compare("less", ids, e.scalar("zero", DType::int64), "less");
  const Value wrapped = e.add(ids, e.scalar("rows", DType::int64), "wrap");
  return e.take(table, e.where(negative, wrapped, ids, "index"), "take");
}

Value norm(GraphEmitter& e, NormType type, Value x) {
  const Shape& s = e.shape(x);
  const int64_t hidden = s[s.rank() - 1];
  if (type == NormType::layernorm) {
    // Relay's layer_norm, simplified: (x - mean) * rsqrt(var + eps) * gamma + beta.
    const Value centred = e.subtract(x, e.mean_last(x, "mean"), "centre");
    const Value var = e.mean_last(e.power(centred, e.scalar("two"), "square"), "variance");
    const Value inv = e.unary("rsqrt", e.add(var, e.scalar("eps"), "add_eps"), "rsqrt");
    const Value scaled = e.multiply(e.multiply(centred, inv, "normalise"),
                                    e.param("weight", Shape{hidden}), "gamma");
    return e.add(scaled, e.param("bias", Shape{hidden}), "beta");
  }
  // LlamaRMSNorm computes in float32 and casts back before the weight; in a float32 graph
  // both casts are no-ops and TVM emits none.
  const DType dt = e.type(x).dtype;
  const bool upcast = dt != DType::float32;
  const Value weight = e.param("weight", Shape{hidden});
  const Value xf = upcast ? e.cast(x, DType::float32, "to_float32") : x;
  const Value var = e.mean_last(e.power(xf, e.scalar("two", DType::float32), "square"), "variance");
  const Value inv =
      e.unary("rsqrt", e.add(var, e.scalar("eps", DType::float32), "add_eps"), "rsqrt");
  Value normed = e.multiply(xf, inv, "normalise");
  if (upcast) normed = e.cast(normed, dt, "to_input_dtype");
  return e.multiply(weight, normed, "weight");
}

Value activation(GraphEmitter& e, Activation act, Value x) {
  switch (act) {
    case Activation::gelu_new: {
      // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
      const Value half = e.multiply(x, e.scalar("half"), "half");
      const Value cube =
          e.multiply(e.power(x, e.scalar("three"), "cube"), e.scalar("coeff"), "scale_cube");
      const Value inner =
          e.multiply(e.add(x, cube, "inner"), e.scalar("sqrt_2_over_pi"), "scale_inner");
      const Value one_plus = e.add(e.unary("tanh", inner, "tanh"), e.scalar("one"), "one_plus");
      return e.multiply(half, one_plus, "gelu");
    }
    case Activation::gelu: {
      // 0.5 * x * (1 + erf(x / sqrt(2))), BERT's and ViT's exact GELU
      const Value half = e.multiply(x, e.scalar("half"), "half");
      const Value scaled = e.multiply(x, e.scalar("inv_sqrt2"), "scale");
      const Value one_plus = e.add(e.unary("erf", scaled, "erf"), e.scalar("one"), "one_plus");
      return e.multiply(half, one_plus, "gelu");
    }
    case Activation::silu:
      return e.multiply(x, e.unary("sigmoid", x, "sigmoid"), "silu");
    case Activation::relu:
      return e.unary("relu", x, "relu");
  }
  return x;
}

Value causal_mask(GraphEmitter& e, Value attention_mask, const Step& step) {
  const int64_t t = step.tokens;
  const int64_t k = step.keys();
  const DType f = e.float_type();
  // causal_mask = full(min).triu(...) (folded) and the padding fix-up
  //   causal_mask[..., :k] = causal_mask[..., :k].masked_fill(causal + mask[:, None, None, :] == 0,
  //   min)
  // whose slice assignment TVM lowers to scatter_nd with a [4, 1, 1, t, k] index tensor.
  const Value base = e.param("causal", Shape{1, 1, t, k}, f);
  const Value index = e.param("fill_index", Shape{4, 1, 1, t, k}, DType::int64);
  const Value causal = e.param("causal_part", Shape{1, 1, t, k}, f);
  const Value m4 = e.reshape(e.reshape(attention_mask, Shape{1, 1, k}, "expand_dims"),
                             Shape{1, 1, 1, k}, "expand_dims");
  const Value padded = e.add(causal, e.cast(m4, f, "cast"), "padding");
  const Value is_pad = e.compare("equal", padded, e.scalar("zero"), "is_padding");
  const Value filled =
      e.where(is_pad, e.scalar("min"), e.param("causal_fill", Shape{1, 1, t, k}, f), "fill");
  const Value update = e.reshape(e.broadcast_to(filled, Shape{1, 1, t, k}), Shape{1, 1, t, k});
  return e.scatter_nd(base, index, update, "assign");
}

void lm_head(GraphEmitter& e, const ModelConfig& c, const Step& step, Value final_hidden, const char* tied_to) {
  const int64_t hidden = c.hidden_size;
  const Value weight = e.param("weight", Shape{c.vocab_size, hidden});
  if (c.tie_word_embeddings) e.set_attr(weight, "tied_to", tied_to);
  int64_t rows = step.tokens;
  if (step.last_logits && rows > 1) {
    final_hidden = e.strided_slice(final_hidden, 1, rows - 1, rows, "last_token");
    rows = 1;
  }
  const Value logits = e.dense(e.reshape(final_hidden, Shape{rows, hidden}, "view"), weight, "dense");
  e.output(e.reshape(logits, Shape{1, rows, c.vocab_size}, "logits"));
}

Value softmax_upcast(GraphEmitter& e, Value x) {
  const DType dt = e.type(x).dtype;
  if (dt != DType::float16) return e.softmax(x);
  return e.cast(e.softmax(e.cast(x, DType::float32, "to_float32")), dt, "to_float16");
}

}  // namespace lightcode::frontend::detail
