// Llama (LlamaForCausalLM, SDPA attention) as TVM lowers it: bias-free linears as
// reshape -> dense -> reshape; rotary embeddings as q * cos + rotate_half(q) * sin with
// rotate_half = concatenate(-x[..., d/2:], x[..., :d/2]) and cos/sin folded to constants
// shared by every layer; repeat_kv (grouped-query attention only) as expand_dims ->
// broadcast_to -> reshape; TVM's scaled_dot_product_attention multiplies q and k^T by
// sqrt(1 / sqrt(head_dim)) each and adds the sliced 4-D mask; SwiGLU MLP. The cache returned
// per layer is (rotated key, value) with the KV heads, as heads of the graph.
// A device's share under tensor or pipeline parallelism (it.parallel, parallelism.hpp): its
// heads, KV heads and intermediate columns, its vocabulary rows, its stage's layers, and the
// all_reduce after o_proj, down_proj and the embedding.
#include <string>
#include <vector>

#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

void build_llama(GraphEmitter& e, const ModelConfig& c, const Iteration& it) {
  const int64_t t = it.tokens();
  const Parallelism& par = it.parallel;
  const int64_t hidden = c.hidden_size;
  const int64_t hd = c.head_dim();
  const RankWidths mine = rank_widths(c.num_attention_heads, c.num_key_value_heads, c.intermediate_size, c.vocab_size, par);
  const int64_t heads = mine.heads;
  const int64_t kv_heads = mine.kv_heads;
  const int64_t rep = heads / kv_heads;
  const int64_t inner = mine.intermediate;
  const auto layers = static_cast<int>(c.num_hidden_layers);
  const auto [first_layer, last_layer] = stage_layers(layers, par.pipeline, par.pipeline_stage);
  const bool first_stage = par.pipeline_stage == 0;
  const bool last_stage = par.pipeline_stage == par.pipeline - 1;
  const size_t n_seq = it.sequences.size();

  Value ids;
  if (first_stage) ids = e.input("input_ids", Shape{1, t}, DType::int64);
  std::vector<Value> attention_mask;
  for (size_t j = 0; j < n_seq; ++j) {
    const Step& s = it.sequences[j];
    attention_mask.push_back(
        e.input(sequence_scope(it, "attention_mask", j), Shape{s.count, s.keys()}, DType::int64));
  }
  const Cache cache = cache_inputs(e, it, layers, kv_heads, hd, static_cast<int>(first_layer),
                                   static_cast<int>(last_layer));

  Value x;
  if (first_stage) {
    e.set_scope("model.embed_tokens");
    x = tensor_all_reduce(e, it, embed(e, e.param("weight", Shape{mine.vocab, hidden}), ids), "all_reduce");
  } else {
    x = e.input("hidden_states", Shape{1, t, hidden}, e.float_type());
  }
  // Per sequence: its causal mask and its positions' rotary tables, shared by every layer.
  std::vector<Value> mask, cos, sin;
  for (size_t j = 0; j < n_seq; ++j) {
    const Step& s = it.sequences[j];
    e.set_scope(sequence_scope(it, "model", j));
    mask.push_back(causal_mask(e, attention_mask[j], s));
    e.set_scope(sequence_scope(it, "model.rotary_emb", j));
    cos.push_back(e.param("cos", Shape{s.count, 1, s.tokens, hd}));
    sin.push_back(e.param("sin", Shape{s.count, 1, s.tokens, hd}));
  }

  auto linear = [&](Value in, int64_t out, std::string_view what) {
    const std::string s(what);
    const Value flat = e.reshape(in, Shape{t, hidden}, s + ".view");
    return e.dense(flat, e.param(s + ".weight", Shape{out, hidden}), s);
  };
  auto rotary = [&](Value v, size_t j) {
    const Value x2 = e.strided_slice(v, 3, hd / 2, hd, "x2");
    const Value x1 = e.strided_slice(v, 3, 0, hd / 2, "x1");
    const Value rotated = e.concatenate(e.unary("negative", x2, "negative"), x1, 3, "rotate_half");
    return e.add(e.multiply(v, cos[j], "cos"), e.multiply(rotated, sin[j], "sin"), "rope");
  };
  // repeat_kv: [b, kv, s, d] -> [b, kv, 1, s, d] -> broadcast -> reshaped to `to`.
  auto repeat_kv = [&](Value v, int64_t b, int64_t keys, Shape to) {
    if (rep == 1) return v;  // Hugging Face returns the tensor itself
    const Value expanded = e.reshape(v, Shape{b, kv_heads, 1, keys, hd}, "repeat_kv.expand_dims");
    const Value wide =
        e.broadcast_to(expanded, Shape{b, kv_heads, rep, keys, hd}, "repeat_kv.expand");
    return e.reshape(wide, to, "repeat_kv.reshape");
  };

  // Step j's attention: q4 [b, n, heads, hd], k4 and v4 [b, n, kv_heads, hd] are its rows (b:
  // the Step's sequences); returns the merged heads [b * n, hidden] and appends the layer's
  // cache (k, v) to presents: the joined cache, or under paged attention the new rows only.
  std::vector<Value> presents;
  presents.reserve(static_cast<size_t>(2 * layers) * n_seq);
  auto attention = [&](size_t j, Value q4, Value k4, Value v4, Value past_k, Value past_v) {
    const Step& step = it.sequences[j];
    const int64_t n = step.tokens;
    const int64_t keys = step.keys();
    const int64_t b = step.count;
    // Paged: the query heads sharing a KV head are rows of one product [b * kv, rep * n, hd]
    // (the layout of [b, heads, n, hd] read as such), so K and V are read once per KV head.
    const int64_t groups = it.paged ? b * kv_heads : b * heads;
    const int64_t rows = it.paged ? rep * n : n;
    Value q = rotary(e.transpose(q4, {0, 2, 1, 3}), j);
    q = e.reshape(e.multiply(q, e.param("sdpa.q_scale", Shape{1}), "sdpa.q_scale"),
                  Shape{groups, rows, hd});

    Value k = rotary(e.transpose(k4, {0, 2, 1, 3}), j);
    if (it.paged) presents.push_back(k);  // appended in place: the new keys only
    if (step.past > 0) k = e.concatenate(past_k, k, 2, "cache_update");
    if (!it.paged) {
      presents.push_back(k);
      k = repeat_kv(k, b, keys, Shape{b, heads, keys, hd});
    }
    Value k_t = e.transpose(k, {0, 1, 3, 2});
    k_t = e.multiply(k_t, e.param("sdpa.k_scale", Shape{1}), "sdpa.k_scale");
    k_t = e.transpose(e.reshape(k_t, Shape{groups, hd, keys}), {0, 2, 1});

    Value scores = e.reshape(e.batch_matmul(q, k_t, "scores"), Shape{b, heads, n, keys});
    scores = e.add(scores, e.strided_slice(mask[j], 3, 0, keys, "mask_slice"), "mask");
    const Value probs = e.reshape(e.softmax(scores), Shape{groups, rows, keys});

    Value v = e.transpose(v4, {0, 2, 1, 3});
    if (it.paged) presents.push_back(v);
    if (step.past > 0) v = e.concatenate(past_v, v, 2, "cache_update");
    if (!it.paged) presents.push_back(v);
    // Consecutive reshapes merge in Relay: repeat_kv's and the batch-matmul flattening are one.
    const Value v3 = rep == 1 || it.paged ? e.reshape(v, Shape{groups, keys, hd})
                                          : repeat_kv(v, b, keys, Shape{groups, keys, hd});
    const Value v_t = e.transpose(v3, {0, 2, 1});
    return merge_heads(e, probs, v_t, "o_proj.view", b, heads);
  };

  for (auto i = static_cast<int>(first_layer); i < last_layer; ++i) {
    const auto l = static_cast<size_t>(i);
    const std::string h = "model.layers." + std::to_string(i);
    e.set_scope(h + ".input_layernorm");
    const Value a_in = norm(e, c.norm_type, x);

    e.set_scope(h + ".self_attn");
    const Value q4 = e.reshape(linear(a_in, heads * hd, "q_proj"), Shape{1, t, heads, hd});
    const Value k4 = e.reshape(linear(a_in, kv_heads * hd, "k_proj"), Shape{1, t, kv_heads, hd});
    const Value v4 = e.reshape(linear(a_in, kv_heads * hd, "v_proj"), Shape{1, t, kv_heads, hd});
    const Value merged = attend_per_sequence(
        e, it, h + ".self_attn", q4, k4, v4, [&](size_t j, Value q, Value k, Value v) {
          return attention(j, q, k, v, cache.k[l][j], cache.v[l][j]);
        });
    const Value o = tensor_all_reduce(
        e, it, e.dense(merged, e.param("o_proj.weight", Shape{hidden, heads * hd}), "o_proj"),
        "o_proj.all_reduce");
    e.set_scope(h);
    x = e.add(x, e.reshape(o, Shape{1, t, hidden}), "attn_residual");

    e.set_scope(h + ".post_attention_layernorm");
    const Value m_in = norm(e, c.norm_type, x);
    e.set_scope(h + ".mlp");
    const Value gate = e.reshape(linear(m_in, inner, "gate_proj"), Shape{1, t, inner});
    const Value up = e.reshape(linear(m_in, inner, "up_proj"), Shape{1, t, inner});
    const Value prod = e.multiply(activation(e, c.hidden_act, gate), up, "gate_up");
    const Value down = tensor_all_reduce(
        e, it,
        e.dense(e.reshape(prod, Shape{t, inner}, "down_proj.view"),
                e.param("down_proj.weight", Shape{hidden, inner}), "down_proj"),
        "down_proj.all_reduce");
    e.set_scope(h);
    x = e.add(x, e.reshape(down, Shape{1, t, hidden}), "mlp_residual");
  }

  if (last_stage) {
    e.set_scope("model.norm");
    const Value final_hidden = norm(e, c.norm_type, x);
    e.set_scope("lm_head");
    lm_head(e, c, it, final_hidden, "model.embed_tokens.weight");
  } else {
    e.set_scope("model.layers." + std::to_string(last_layer - 1));
    e.output(send_to_next_stage(e, x));
  }
  for (const Value& p : presents) e.output(p);
}

}  // namespace lightcode::frontend::detail
