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

void build_opt(GraphEmitter& e, const ModelConfig& c, const Step& step) {
  const int64_t t = step.tokens;
  const int64_t keys = step.keys();
  const int64_t hidden = c.hidden_size;
  const int64_t heads = c.num_attention_heads;
  const int64_t hd = c.head_dim();
  const int64_t inner = c.intermediate_size;
  const DType f = e.float_type();
  const auto layers = static_cast<int>(c.num_hidden_layers);
  constexpr int64_t kPositionOffset = 2;  // OPTLearnedPositionalEmbedding.offset

  const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
  const Value attention_mask = e.input("attention_mask", Shape{1, keys}, DType::int64);
  std::vector<Value> past_k, past_v;
  if (step.past > 0) {
    for (int i = 0; i < layers; ++i) {
      past_k.push_back(e.input("past_k_" + std::to_string(i), Shape{1, heads, step.past, hd}, f));
      past_v.push_back(e.input("past_v_" + std::to_string(i), Shape{1, heads, step.past, hd}, f));
    }
  }

  e.set_scope("model.decoder.embed_tokens");
  const Value tokens = embed(e, e.param("weight", Shape{c.vocab_size, hidden}),
                             e.reshape(ids, Shape{1, t}, "input_ids.view"));
  e.set_scope("model.decoder.embed_positions");
  Value pos = e.unary("cumsum", attention_mask, "cumsum");
  pos = e.subtract(e.multiply(pos, attention_mask, "mask"), e.scalar("one", DType::int64),
                   "minus_one");
  pos = e.strided_slice(pos, 1, step.past, keys, "past_slice");
  pos = e.add(pos, e.scalar("offset", DType::int64), "add_offset");
  const Value positions =
      embed(e, e.param("weight", Shape{c.max_position_embeddings + kPositionOffset, hidden}), pos);
  e.set_scope("model.decoder");
  Value x = e.add(tokens, positions, "embeddings");
  const Value mask = causal_mask(e, attention_mask, step);

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
  auto split_heads = [&](Value v) {
    return e.transpose(e.reshape(v, Shape{1, t, heads, hd}), {0, 2, 1, 3});
  };

  std::vector<Value> presents;
  presents.reserve(static_cast<size_t>(2 * layers));
  for (int i = 0; i < layers; ++i) {
    const std::string h = "model.decoder.layers." + std::to_string(i);
    e.set_scope(h + ".self_attn_layer_norm");
    const Value a_in = norm(e, c.norm_type, x);

    e.set_scope(h + ".self_attn");
    const Value q_scaled =
        e.multiply(linear3(a_in, hidden, "q_proj"), e.scalar("scaling"), "scaling");
    const Value q = e.reshape(split_heads(q_scaled), Shape{heads, t, hd});
    Value k = split_heads(linear3(a_in, hidden, "k_proj"));
    if (step.past > 0) k = e.concatenate(past_k[static_cast<size_t>(i)], k, 2, "cache_update");
    presents.push_back(k);
    // matmul(q, k.transpose(2, 3)): batch_matmul takes its right operand transposed back.
    const Value k_t =
        e.transpose(e.reshape(e.transpose(k, {0, 1, 3, 2}), Shape{heads, hd, keys}), {0, 2, 1});
    Value scores = e.reshape(e.batch_matmul(q, k_t, "scores"), Shape{1, heads, t, keys});
    scores = e.add(scores, e.strided_slice(mask, 3, 0, keys, "mask_slice"), "mask");
    const Value probs = e.reshape(softmax_upcast(e, scores), Shape{heads, t, keys});

    Value v = split_heads(linear3(a_in, hidden, "v_proj"));
    if (step.past > 0) v = e.concatenate(past_v[static_cast<size_t>(i)], v, 2, "cache_update");
    presents.push_back(v);
    const Value v_t = e.transpose(e.reshape(v, Shape{heads, keys, hd}), {0, 2, 1});
    Value ctx = e.reshape(e.batch_matmul(probs, v_t, "context"), Shape{1, heads, t, hd});
    ctx = e.transpose(ctx, {0, 2, 1, 3}, "merge_heads");
    const Value attn =
        linear3(e.reshape(ctx, Shape{t, hidden}, "merge_heads.view"), hidden, "out_proj");
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
  lm_head(e, c, step, final_hidden, "model.decoder.embed_tokens.weight");
  for (const Value& p : presents) e.output(p);
}

}  // namespace lightcode::frontend::detail
