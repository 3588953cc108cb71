#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

int64_t Iteration::tokens() const {
  int64_t total = 0;
  for (const Step& s : sequences) total += s.rows();
  return total;
}

int64_t Iteration::sequence_count() const {
  int64_t total = 0;
  for (const Step& s : sequences) total += s.count;
  return total;
}

std::string Iteration::label(size_t step) const {
  const Step& s = sequences[step];
  std::string l = "seq" + std::to_string(s.first);
  if (s.count > 1) l += "-" + std::to_string(s.first + s.count - 1);
  return l;
}

std::vector<Value> split_sequences(GraphEmitter& e, const Iteration& it, Value x, int axis) {
  if (it.single()) return {x};
  std::vector<Value> parts;
  int64_t begin = 0;
  for (const Step& s : it.sequences) {
    parts.push_back(e.strided_slice(x, axis, begin, begin + s.rows(), "sequence_rows"));
    begin += s.rows();
  }
  return parts;
}

Value join_sequences(GraphEmitter& e, const std::vector<Value>& parts, int axis,
                     std::string_view label) {
  Value joined = parts.front();
  for (size_t j = 1; j < parts.size(); ++j) joined = e.concatenate(joined, parts[j], axis, label);
  return joined;
}

Value attend_per_sequence(GraphEmitter& e, const Iteration& it, const std::string& scope, Value q,
                          Value k, Value v,
                          const std::function<Value(size_t, Value, Value, Value)>& attention) {
  if (it.single()) return attention(0, q, k, v);
  Value joined{};
  int64_t begin = 0;
  for (size_t j = 0; j < it.sequences.size(); ++j) {
    const Step& s = it.sequences[j];
    const int64_t end = begin + s.rows();
    e.set_scope(scope);
    // A group's rows [1, count * tokens, ...] as [count, tokens, ...].
    auto rows = [&](Value x) {
      const Value part = e.strided_slice(x, 1, begin, end, "sequence_rows");
      if (s.count == 1) return part;
      ir::Shape grouped = e.shape(part);
      grouped[0] = s.count;
      grouped[1] = s.tokens;
      return e.reshape(part, grouped, "group_rows");
    };
    const Value qj = rows(q), kj = rows(k), vj = rows(v);
    begin = end;
    e.set_scope(sequence_scope(it, scope, j));
    const Value m = attention(j, qj, kj, vj);
    e.set_scope(scope);
    joined = j == 0 ? m : e.concatenate(joined, m, 0, "merge_sequences");
  }
  return joined;
}

Value merge_heads(GraphEmitter& e, Value probs, Value v_t, std::string_view view_label,
                  int64_t count, int64_t heads) {
  const Shape& p = e.shape(probs);
  if (heads == 0) heads = p[0] / count;
  const int64_t n = p[0] * p[1] / (count * heads);
  const int64_t hd = e.shape(v_t)[1];
  Value ctx = e.reshape(e.batch_matmul(probs, v_t, "context"), Shape{count, heads, n, hd});
  ctx = e.transpose(ctx, {0, 2, 1, 3}, "merge_heads");
  return e.reshape(ctx, Shape{count * n, heads * hd}, view_label);
}

std::string sequence_scope(const Iteration& it, const std::string& base, size_t j) {
  return it.single() ? base : base + "." + it.label(j);
}

std::string cache_name(const Iteration& it, const char* what, int layer, size_t j) {
  return sequence_scope(it, std::string(what) + "_" + std::to_string(layer), j);
}

Cache cache_inputs(GraphEmitter& e, const Iteration& it, int layers, int64_t kv_heads,
                   int64_t head_dim, int first, int last) {
  Cache cache;
  const size_t n = it.sequences.size();
  cache.k.assign(static_cast<size_t>(layers), std::vector<Value>(n));
  cache.v.assign(static_cast<size_t>(layers), std::vector<Value>(n));
  if (last < 0) last = layers;
  for (int i = first; i < last; ++i) {
    for (size_t j = 0; j < n; ++j) {
      const int64_t past = it.sequences[j].past;
      if (past == 0) continue;
      const Shape s{it.sequences[j].count, kv_heads, past, head_dim};
      const auto l = static_cast<size_t>(i);
      cache.k[l][j] = e.input(cache_name(it, "past_k", i, j), s, e.float_type());
      cache.v[l][j] = e.input(cache_name(it, "past_v", i, j), s, e.float_type());
    }
  }
  return cache;
}

namespace {
Value collective(GraphEmitter& e, std::string_view kind, Value x, int64_t ranks, const ir::TensorType& out,
                 std::string_view label) {
  const Value v = e.op(kind, label, {x}, out);
  e.set_attr(v, "ranks", std::to_string(ranks));
  return v;
}
}  // namespace

Value tensor_all_reduce(GraphEmitter& e, const Iteration& it, Value x, std::string_view label) {
  if (it.parallel.tensor == 1) return x;
  return collective(e, "all_reduce", x, it.parallel.tensor, e.type(x), label);
}

Value tensor_all_gather(GraphEmitter& e, const Iteration& it, Value x, int64_t gathered,
                        std::string_view label) {
  if (it.parallel.tensor == 1) return x;
  ir::TensorType out = e.type(x);
  out.shape[out.shape.rank() - 1] = gathered;
  return collective(e, "all_gather", x, it.parallel.tensor, out, label);
}

Value send_to_next_stage(GraphEmitter& e, Value x) {
  return collective(e, "send_recv", x, 2, e.type(x), "send_recv");
}

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
  const int64_t b = step.count;
  const DType f = e.float_type();
  // causal_mask = full(min).triu(...) (folded) and the padding fix-up
  //   causal_mask[..., :k] = causal_mask[..., :k].masked_fill(causal + mask[:, None, None, :] == 0,
  //   min)
  // whose slice assignment TVM lowers to scatter_nd with a [4, 1, 1, t, k] index tensor.
  const Value base = e.param("causal", Shape{b, 1, t, k}, f);
  const Value index = e.param("fill_index", Shape{4, b, 1, t, k}, DType::int64);
  const Value causal = e.param("causal_part", Shape{b, 1, t, k}, f);
  const Value m4 = e.reshape(e.reshape(attention_mask, Shape{b, 1, k}, "expand_dims"),
                             Shape{b, 1, 1, k}, "expand_dims");
  const Value padded = e.add(causal, e.cast(m4, f, "cast"), "padding");
  const Value is_pad = e.compare("equal", padded, e.scalar("zero"), "is_padding");
  const Value filled =
      e.where(is_pad, e.scalar("min"), e.param("causal_fill", Shape{b, 1, t, k}, f), "fill");
  const Value update = e.reshape(e.broadcast_to(filled, Shape{b, 1, t, k}), Shape{b, 1, t, k});
  return e.scatter_nd(base, index, update, "assign");
}

void lm_head(GraphEmitter& e, const ModelConfig& c, const Iteration& it, Value final_hidden,
             const char* tied_to) {
  const int64_t hidden = c.hidden_size;
  const int64_t vocab = share_of(c.vocab_size, it.parallel.tensor, it.parallel.tensor_rank);
  const Value weight = e.param("weight", Shape{vocab, hidden});
  if (c.tie_word_embeddings) e.set_attr(weight, "tied_to", tied_to);
  int64_t rows = it.tokens();
  const int64_t sequences = it.sequence_count();
  if (it.last_logits && rows > sequences) {
    // Each sequence's last row; a sequence of one token is sliced too, to keep the join simple.
    // A group's last rows: its rows as [count, tokens, hidden], the last token of each.
    std::vector<Value> last;
    int64_t end = 0;
    for (const Step& s : it.sequences) {
      end += s.rows();
      if (s.count == 1 || s.tokens == 1) {  // one sequence's last row, or a group of decodes
        const int64_t from = end - (s.tokens == 1 ? s.count : 1);
        last.push_back(e.strided_slice(final_hidden, 1, from, end, "last_token"));
        continue;
      }
      const Value part = e.strided_slice(final_hidden, 1, end - s.rows(), end, "sequence_rows");
      const Value grouped = e.reshape(part, Shape{s.count, s.tokens, c.hidden_size}, "group_rows");
      const Value tail = e.strided_slice(grouped, 1, s.tokens - 1, s.tokens, "last_token");
      last.push_back(e.reshape(tail, Shape{1, s.count, c.hidden_size}, "group_last"));
    }
    final_hidden = join_sequences(e, last, 1, "last_tokens");
    rows = sequences;
  }
  const Value logits = e.dense(e.reshape(final_hidden, Shape{rows, hidden}, "view"), weight, "dense");
  const Value local = e.reshape(logits, Shape{1, rows, vocab}, "logits");
  e.output(tensor_all_gather(e, it, local, c.vocab_size, "all_gather"));
}

Value softmax_upcast(GraphEmitter& e, Value x) {
  const DType dt = e.type(x).dtype;
  if (dt != DType::float16) return e.softmax(x);
  return e.cast(e.softmax(e.cast(x, DType::float32, "to_float32")), dt, "to_float16");
}

}  // namespace lightcode::frontend::detail
