// GPT-2 (GPT2LMHeadModel, eager attention) as TVM lowers it: Conv1D projections are
// reshape -> dense -> bias add -> reshape; the fused c_attn output is split into q, k, v;
// scores are divided by sqrt(head_dim) and masked by `where` with the folded causal bias
// (one constant per layer); position embeddings fold to a constant. The cache returned per
// layer is (key [1, heads, keys, head_dim], value) as heads of the graph.
#include <string>
#include <vector>

#include "frontend/models/transformer_blocks.hpp"

namespace lightcode::frontend::detail {

using ir::DType;
using ir::Shape;

void build_gpt2(GraphEmitter& e, const ModelConfig& c, const Iteration& it) {
  const int64_t t = it.tokens();
  const int64_t hidden = c.hidden_size;
  const int64_t heads = c.num_attention_heads;
  const int64_t hd = c.head_dim();
  const int64_t inner = c.intermediate_size;
  const auto layers = static_cast<int>(c.num_hidden_layers);

  const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
  const Cache cache = cache_inputs(e, it, layers, heads, hd);

  e.set_scope("transformer.wte");
  const Value wte = e.param("weight", Shape{c.vocab_size, hidden});
  e.set_scope("transformer");
  const Value tokens = embed(e, wte, e.reshape(ids, Shape{1, t}, "input_ids.view"));
  // Every sequence's positions, folded into one constant.
  Value x = e.add(tokens, e.param("wpe(position_ids)", Shape{1, t, hidden}), "embeddings");

  // Conv1D: x.view(-1, in) @ W + b (callers reshape back to [1, t, out]). Input already
  // [t, in] is used as is: Relay merges a reshape feeding a reshape into one.
  auto conv1d = [&](Value in, int64_t out, std::string_view what) {
    const std::string s(what);
    const int64_t width = e.shape(in)[e.shape(in).rank() - 1];
    const Value flat = e.shape(in).rank() == 2 ? in : e.reshape(in, Shape{t, width}, s + ".view");
    const Value y = e.dense(flat, e.param(s + ".weight", Shape{out, width}), s);
    return e.add(y, e.param(s + ".bias", Shape{out}), s + ".bias_add");
  };

  // One sequence's attention over its own cache: q, k, v are its rows [1, tokens, hidden];
  // returns the merged heads [tokens, hidden] and appends the layer's cache (k, v) to presents.
  std::vector<Value> presents;
  presents.reserve(static_cast<size_t>(2 * layers) * it.sequences.size());
  auto attention = [&](const Step& step, Value q_rows, Value k_rows, Value v_rows, Value past_k,
                       Value past_v) {
    const int64_t n = step.tokens;
    const int64_t keys = step.keys();
    const Value q = e.reshape(e.transpose(e.reshape(q_rows, Shape{1, n, heads, hd}), {0, 2, 1, 3}),
                              Shape{heads, n, hd});
    const Value k4 = e.reshape(k_rows, Shape{1, n, heads, hd});
    Value k_t;  // keys as batch_matmul's transposed operand [heads, keys, hd]
    if (step.past > 0) {
      const Value k_all = e.concatenate(past_k, e.transpose(k4, {0, 2, 1, 3}), 2);
      presents.push_back(k_all);
      k_t = e.transpose(e.reshape(e.transpose(k_all, {0, 1, 3, 2}), Shape{heads, hd, keys}),
                        {0, 2, 1});
    } else {
      // present = key.transpose(1, 2): a transpose of its own, emitted after the logits.
      presents.push_back(e.transpose(k4, {0, 2, 1, 3}, "present_key"));
      k_t = e.transpose(e.reshape(e.transpose(k4, {0, 2, 3, 1}), Shape{heads, hd, n}), {0, 2, 1});
    }
    Value scores = e.reshape(e.batch_matmul(q, k_t, "scores"), Shape{1, heads, n, keys});
    scores = e.divide(scores, e.scalar("scale"), "scale");
    scores = e.where(e.param("bias", Shape{1, 1, n, keys}, DType::uint1), scores,
                     e.scalar("masked_bias"), "causal");
    const Value probs = e.reshape(e.softmax(scores), Shape{heads, n, keys});

    Value v = e.transpose(e.reshape(v_rows, Shape{1, n, heads, hd}), {0, 2, 1, 3});
    if (step.past > 0) v = e.concatenate(past_v, v, 2);
    presents.push_back(v);
    const Value v_t = e.transpose(e.reshape(v, Shape{heads, keys, hd}), {0, 2, 1});
    return merge_heads(e, probs, v_t, "merge_heads.view");
  };

  for (int i = 0; i < layers; ++i) {
    const auto l = static_cast<size_t>(i);
    const std::string h = "transformer.h." + std::to_string(i);
    e.set_scope(h + ".ln_1");
    const Value a_in = norm(e, c.norm_type, x);

    e.set_scope(h + ".attn");
    const Value qkv = e.reshape(conv1d(a_in, 3 * hidden, "c_attn"), Shape{1, t, 3 * hidden});
    const std::vector<Value> parts = e.split_last(qkv, 3);
    const Value merged = attend_per_sequence(
        e, it, h + ".attn", parts[0], parts[1], parts[2], [&](size_t j, Value q, Value k, Value v) {
          return attention(it.sequences[j], q, k, v, cache.k[l][j], cache.v[l][j]);
        });
    const Value attn = e.reshape(conv1d(merged, hidden, "c_proj"), Shape{1, t, hidden});
    e.set_scope(h);
    x = e.add(attn, x, "attn_residual");

    e.set_scope(h + ".ln_2");
    const Value m_in = norm(e, c.norm_type, x);
    e.set_scope(h + ".mlp");
    const Value up = e.reshape(conv1d(m_in, inner, "c_fc"), Shape{1, t, inner});
    const Value act = activation(e, c.hidden_act, up);
    const Value down = e.reshape(conv1d(act, hidden, "c_proj"), Shape{1, t, hidden});
    e.set_scope(h);
    x = e.add(x, down, "mlp_residual");
  }

  e.set_scope("transformer.ln_f");
  const Value final_hidden = norm(e, c.norm_type, x);
  e.set_scope("lm_head");
  // TVM binds lm_head.weight as a constant of its own even when tied to wte.
  lm_head(e, c, it, final_hidden, "transformer.wte.weight");
  for (const Value& p : presents) e.output(p);
}

}  // namespace lightcode::frontend::detail
