// OPT (OPTForCausalLM, do_layer_norm_before, eager attention) as TVM would lower it; there is
// no TVM reference graph, so this follows the Hugging Face module code with the lowering rules
// the GPT-2 and Llama references show: nn.Linear on 3-D input is reshape -> dense -> reshape
// -> bias add; q is scaled by head_dim^-0.5 right after q_proj; 4-D matmuls flatten to
// batch_matmul with the right operand transposed; learned positions come from the
// attention_mask (cumsum * mask - 1, sliced past the cache, plus the offset 2); the sliced
// 4-D mask is added to the scores; the MLP runs on the 2-D view [tokens, hidden].
#include <string>
#include <vector>

#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

void build_opt(GraphEmitter& e, const ModelConfig& c, const Iteration& it) {
  const int64_t t = it.tokens();
  const int64_t hidden = c.hidden_size;
  const int64_t heads = c.num_attention_heads;
  const int64_t hd = c.head_dim();
  const int64_t inner = c.intermediate_size;
  const auto layers = static_cast<int>(c.num_hidden_layers);
  const size_t n_seq = it.sequences.size();
  constexpr int64_t kPositionOffset = 2;  // OPTLearnedPositionalEmbedding.offset

  const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
  std::vector<Value> attention_mask;
  for (size_t j = 0; j < n_seq; ++j) {
    attention_mask.push_back(
        e.input(sequence_scope(it, "attention_mask", j), Shape{1, it.sequences[j].keys()}, DType::int64));
  }
  const Cache cache = cache_inputs(e, it, layers, heads, hd);

  e.set_scope("model.decoder.embed_tokens");
  const Value tokens = embed(e, e.param("weight", Shape{c.vocab_size, hidden}),
                             e.reshape(ids, Shape{1, t}, "input_ids.view"));
  // Each sequence's positions come from its own mask, past its own cache.
  std::vector<Value> positions_of;
  for (size_t j = 0; j < n_seq; ++j) {
    const Step& s = it.sequences[j];
    e.set_scope(sequence_scope(it, "model.decoder.embed_positions", j));
    Value pos = e.unary("cumsum", attention_mask[j], "cumsum");
    pos = e.subtract(e.multiply(pos, attention_mask[j], "mask"), e.scalar("one", DType::int64),
                     "minus_one");
    positions_of.push_back(e.strided_slice(pos, 1, s.past, s.keys(), "past_slice"));
  }
  e.set_scope("model.decoder.embed_positions");
  Value pos = join_sequences(e, positions_of, 1, "join_positions");
  pos = e.add(pos, e.scalar("offset", DType::int64), "add_offset");
  const Value positions =
      embed(e, e.param("weight", Shape{c.max_position_embeddings + kPositionOffset, hidden}), pos);
  e.set_scope("model.decoder");
  Value x = e.add(tokens, positions, "embeddings");
  std::vector<Value> mask;
  for (size_t j = 0; j < n_seq; ++j) {
    e.set_scope(sequence_scope(it, "model.decoder", j));
    mask.push_back(causal_mask(e, attention_mask[j], it.sequences[j]));
  }

  // nn.Linear with bias on [1, t, in]; `in` may come already flattened to [t, in] when the
  // caller's own reshape would merge with the flattening one.
  auto linear3 = [&](Value in, int64_t out, std::string_view what) {
    const std::string s(what);
    const int64_t width = e.shape(in)[e.shape(in).rank() - 1];
    const Value flat = e.shape(in).rank() == 2 ? in : e.reshape(in, Shape{t, width}, s + ".view");
    const Value y = e.dense(flat, e.param(s + ".weight", Shape{out, width}), s);
    return e.add(e.reshape(y, Shape{1, t, out}, s + ".unflatten"), e.param(s + ".bias", Shape{out}),
                 s + ".bias_add");
  };
  // nn.Linear with bias on [t, in]: no reshapes.
  auto linear2 = [&](Value in, int64_t out, std::string_view what) {
    const std::string s(what);
    const int64_t width = e.shape(in)[1];
    const Value y = e.dense(in, e.param(s + ".weight", Shape{out, width}), s);
    return e.add(y, e.param(s + ".bias", Shape{out}), s + ".bias_add");
  };
  auto split_heads = [&](Value v, int64_t n) {
    return e.transpose(e.reshape(v, Shape{1, n, heads, hd}), {0, 2, 1, 3});
  };

  // Sequence j's attention on its rows [1, n, hidden] of q (scaled), k and v; returns the
  // merged heads [n, hidden] and appends the layer's cache (k, v) to presents.
  std::vector<Value> presents;
  presents.reserve(static_cast<size_t>(2 * layers) * n_seq);
  auto attention = [&](size_t j, Value q_rows, Value k_rows, Value v_rows, Value past_k,
                       Value past_v) {
    const Step& step = it.sequences[j];
    const int64_t n = step.tokens;
    const int64_t keys = step.keys();
    const Value q = e.reshape(split_heads(q_rows, n), Shape{heads, n, hd});
    Value k = split_heads(k_rows, n);
    if (step.past > 0) k = e.concatenate(past_k, k, 2, "cache_update");
    presents.push_back(k);
    // matmul(q, k.transpose(2, 3)): batch_matmul takes its right operand transposed back.
    const Value k_t =
        e.transpose(e.reshape(e.transpose(k, {0, 1, 3, 2}), Shape{heads, hd, keys}), {0, 2, 1});
    Value scores = e.reshape(e.batch_matmul(q, k_t, "scores"), Shape{1, heads, n, keys});
    scores = e.add(scores, e.strided_slice(mask[j], 3, 0, keys, "mask_slice"), "mask");
    const Value probs = e.reshape(softmax_upcast(e, scores), Shape{heads, n, keys});

    Value v = split_heads(v_rows, n);
    if (step.past > 0) v = e.concatenate(past_v, v, 2, "cache_update");
    presents.push_back(v);
    const Value v_t = e.transpose(e.reshape(v, Shape{heads, keys, hd}), {0, 2, 1});
    return merge_heads(e, probs, v_t, "merge_heads.view");
  };

  for (int i = 0; i < layers; ++i) {
    const auto l = static_cast<size_t>(i);
    const std::string h = "model.decoder.layers." + std::to_string(i);
    e.set_scope(h + ".self_attn_layer_norm");
    const Value a_in = norm(e, c.norm_type, x);

    e.set_scope(h + ".self_attn");
    const Value q_scaled =
        e.multiply(linear3(a_in, hidden, "q_proj"), e.scalar("scaling"), "scaling");
    const Value merged = attend_per_sequence(
        e, it, h + ".self_attn", q_scaled, linear3(a_in, hidden, "k_proj"),
        linear3(a_in, hidden, "v_proj"), [&](size_t j, Value q, Value k, Value v) {
          return attention(j, q, k, v, cache.k[l][j], cache.v[l][j]);
        });
    const Value attn = linear3(merged, hidden, "out_proj");
    e.set_scope(h);
    x = e.add(x, attn, "attn_residual");

    // hidden_states.reshape(-1, hidden): the feed-forward half works on [t, hidden].
    const Value flat = e.reshape(x, Shape{t, hidden}, "flatten");
    e.set_scope(h + ".final_layer_norm");
    const Value m_in = norm(e, c.norm_type, flat);
    e.set_scope(h);
    const Value act = activation(e, c.hidden_act, linear2(m_in, inner, "fc1"));
    const Value down = linear2(act, hidden, "fc2");
    x = e.reshape(e.add(flat, down, "mlp_residual"), Shape{1, t, hidden}, "unflatten");
  }

  e.set_scope("model.decoder.final_layer_norm");
  const Value final_hidden = norm(e, c.norm_type, x);
  e.set_scope("lm_head");
  lm_head(e, c, it, final_hidden, "model.decoder.embed_tokens.weight");
  for (const Value& p : presents) e.output(p);
}

}  // namespace lightcode::frontend::detail
