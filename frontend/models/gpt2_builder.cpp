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

void build_gpt2(GraphEmitter& e, const ModelConfig& c, const Step& step) {
  const int64_t t = step.tokens;
  const int64_t keys = step.keys();
  const int64_t hidden = c.hidden_size;
  const int64_t heads = c.num_attention_heads;
  const int64_t hd = c.head_dim();
  const int64_t inner = c.intermediate_size;
  const DType f = e.float_type();
  const auto layers = static_cast<int>(c.num_hidden_layers);

  const Value ids = e.input("input_ids", Shape{1, t}, DType::int64);
  std::vector<Value> past_k, past_v;
  if (step.past > 0) {
    for (int i = 0; i < layers; ++i) {
      past_k.push_back(e.input("past_k_" + std::to_string(i), Shape{1, heads, step.past, hd}, f));
      past_v.push_back(e.input("past_v_" + std::to_string(i), Shape{1, heads, step.past, hd}, f));
    }
  }

  e.set_scope("transformer.wte");
  const Value wte = e.param("weight", Shape{c.vocab_size, hidden});
  e.set_scope("transformer");
  const Value tokens = embed(e, wte, e.reshape(ids, Shape{1, t}, "input_ids.view"));
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

  std::vector<Value> presents;
  presents.reserve(static_cast<size_t>(2 * layers));
  for (int i = 0; i < layers; ++i) {
    const std::string h = "transformer.h." + std::to_string(i);
    e.set_scope(h + ".ln_1");
    const Value a_in = norm(e, c.norm_type, x);

    e.set_scope(h + ".attn");
    const Value qkv = e.reshape(conv1d(a_in, 3 * hidden, "c_attn"), Shape{1, t, 3 * hidden});
    const std::vector<Value> parts = e.split_last(qkv, 3);
    const Value q =
        e.reshape(e.transpose(e.reshape(parts[0], Shape{1, t, heads, hd}), {0, 2, 1, 3}),
                  Shape{heads, t, hd});
    const Value k4 = e.reshape(parts[1], Shape{1, t, heads, hd});
    Value k_t;  // keys as batch_matmul's transposed operand [heads, keys, hd]
    if (step.past > 0) {
      const Value k_all =
          e.concatenate(past_k[static_cast<size_t>(i)], e.transpose(k4, {0, 2, 1, 3}), 2);
      presents.push_back(k_all);
      k_t = e.transpose(e.reshape(e.transpose(k_all, {0, 1, 3, 2}), Shape{heads, hd, keys}),
                        {0, 2, 1});
    } else {
      // present = key.transpose(1, 2): a transpose of its own, emitted after the logits.
      presents.push_back(e.transpose(k4, {0, 2, 1, 3}, "present_key"));
      k_t = e.transpose(e.reshape(e.transpose(k4, {0, 2, 3, 1}), Shape{heads, hd, t}), {0, 2, 1});
    }
    Value scores = e.reshape(e.batch_matmul(q, k_t, "scores"), Shape{1, heads, t, keys});
    scores = e.divide(scores, e.scalar("scale"), "scale");
    scores = e.where(e.param("bias", Shape{1, 1, t, keys}, DType::uint1), scores,
                     e.scalar("masked_bias"), "causal");
    const Value probs = e.reshape(e.softmax(scores), Shape{heads, t, keys});

    Value v = e.transpose(e.reshape(parts[2], Shape{1, t, heads, hd}), {0, 2, 1, 3});
    if (step.past > 0) v = e.concatenate(past_v[static_cast<size_t>(i)], v, 2);
    presents.push_back(v);
    const Value v_t = e.transpose(e.reshape(v, Shape{heads, keys, hd}), {0, 2, 1});
    Value ctx = e.reshape(e.batch_matmul(probs, v_t, "context"), Shape{1, heads, t, hd});
    ctx = e.transpose(ctx, {0, 2, 1, 3}, "merge_heads");
    const Value attn =
        e.reshape(conv1d(e.reshape(ctx, Shape{t, hidden}, "merge_heads.view"), hidden, "c_proj"),
                  Shape{1, t, hidden});
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
  lm_head(e, c, step, final_hidden, "transformer.wte.weight");
  for (const Value& p : presents) e.output(p);
}

}  // namespace lightcode::frontend::detail
