#pragma once
// Internal to the model builders: the pieces Hugging Face transformer families share, each
// lowered the way TVM's PyTorch frontend (Relay at opt level 0, constants folded) lowers the
// PyTorch module, and the per-family builders that assemble them.
// A Step is one sequence's part of a forward call: `tokens` new tokens attend to
// `past + tokens` keys. An Iteration is the decoders' forward call over a batch of Steps: the
// matrix products see all new tokens as rows, in sequence order; attention runs per sequence.
// With one sequence the decoders emit exactly the graph of a plain prefill or decode step, so
// TVM isomorphism holds; names and inputs gain a ".seq<j>" / "_<j>" part only with several.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/model_config.hpp"

namespace lightcode::frontend::detail {

struct Step {
  int64_t tokens = 0;  // query positions in this call: the prompt, or 1 when decoding
  int64_t past = 0;    // KV-cache length before the call; 0 for prefill
  int64_t keys() const { return past + tokens; }
};

struct Iteration {
  std::vector<Step> sequences;
  bool last_logits = false;  // project only each sequence's last token (model_builder.hpp)
  bool single() const { return sequences.size() == 1; }
  int64_t tokens() const;  // rows of the shared products: the sum of the sequences' tokens
};

// x's rows of each sequence along `axis` (the token axis), in order; {x} itself for one.
std::vector<Value> split_sequences(GraphEmitter& e, const Iteration& it, Value x, int axis);
// The per-sequence parts joined back along `axis`; the part itself for one sequence.
Value join_sequences(GraphEmitter& e, const std::vector<Value>& parts, int axis,
                     std::string_view label);
// One attention layer over the batch: q, k, v [1, tokens, ...] are split into each sequence's
// rows, `attention(j, q_j, k_j, v_j)` runs under scope "<scope>[.seq<j>]" and returns that
// sequence's merged heads [rows, hidden]; these are joined into [tokens, hidden]. The emitter's
// scope is `scope` again afterwards.
Value attend_per_sequence(GraphEmitter& e, const Iteration& it, const std::string& scope, Value q,
                          Value k, Value v,
                          const std::function<Value(size_t, Value, Value, Value)>& attention);
// probs [heads, n, keys] times v_t [heads, hd, keys], heads merged back: [n, heads * hd].
Value merge_heads(GraphEmitter& e, Value probs, Value v_t, std::string_view view_label);
// `base` for one sequence, "<base>.seq<j>" for several: scopes of per-sequence constants.
std::string sequence_scope(const Iteration& it, const std::string& base, size_t j);
// Cache input names: "past_k_<layer>" for one sequence, "past_k_<layer>.seq<j>" for several.
std::string cache_name(const Iteration& it, const char* what, int layer, size_t j);
// The KV-cache inputs [1, kv_heads, past, head_dim] of every layer, as [layer][sequence] pairs
// (k, v); a sequence without context has none (an invalid Value, node -1).
struct Cache {
  std::vector<std::vector<Value>> k, v;
};
Cache cache_inputs(GraphEmitter& e, const Iteration& it, int layers, int64_t kv_heads,
                   int64_t head_dim);

// nn.Embedding: TVM wraps negative ids (less, add, where) before the take.
Value embed(GraphEmitter& e, Value table, Value ids);
// torch.nn.LayerNorm (with weight and bias) or LlamaRMSNorm, per `type`, over the last axis;
// makes its own parameters in the emitter's current scope.
Value norm(GraphEmitter& e, NormType type, Value x);
// ACT2FN[hidden_act] on x: gelu_new's tanh form, gelu's erf form, silu as x * sigmoid(x), relu.
Value activation(GraphEmitter& e, Activation act, Value x);
// The 4-D additive mask [1, 1, tokens, keys] that `_update_causal_mask` builds from the
// folded causal part and the attention_mask input [1, keys]; each layer slices it.
Value causal_mask(GraphEmitter& e, Value attention_mask, const Step& step);
// The output projection of `final_hidden` [1, tokens, hidden] to logits, made an output:
// [1, tokens, vocab], or with it.last_logits each sequence's last token sliced out first,
// [1, sequences, vocab]. Its weight is tied to `tied_to` when the config ties the embeddings.
void lm_head(GraphEmitter& e, const ModelConfig& c, const Iteration& it, Value final_hidden,
             const char* tied_to);
// softmax over the last axis; float16 upcasts to float32 around it, as OPT does.
Value softmax_upcast(GraphEmitter& e, Value x);

void build_gpt2(GraphEmitter& e, const ModelConfig& c, const Iteration& it);
void build_llama(GraphEmitter& e, const ModelConfig& c, const Iteration& it);
void build_opt(GraphEmitter& e, const ModelConfig& c, const Iteration& it);
void build_bert(GraphEmitter& e, const ModelConfig& c, const Step& step);  // encoder_builder.cpp
void build_vit(GraphEmitter& e, const ModelConfig& c, const Step& step);

}  // namespace lightcode::frontend::detail
