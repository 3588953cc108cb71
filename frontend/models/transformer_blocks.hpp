#pragma once
// Internal to the model builders: the pieces Hugging Face transformer families share, each
// lowered the way TVM's PyTorch frontend (Relay at opt level 0, constants folded) lowers the
// PyTorch module, and the per-family builders that assemble them.
// A Step is one sequence's part of a forward call: `tokens` new tokens attend to
// `past + tokens` keys; or, with count > 1, a group of `count` sequences alike (the same
// tokens and past) whose attention runs as one batch (BatchAttention::grouped): every tensor
// of the group's attention, masks, rotary tables and cache carries `count` as its leading
// dimension where one sequence's has 1, as a batched kernel (vLLM's paged attention over equal
// lengths) runs them. An Iteration is the decoders' forward call over a batch of Steps: the
// matrix products see all new tokens as rows, in sequence order; attention runs per Step.
// With one sequence the decoders emit exactly the graph of a plain prefill or decode step, so
// TVM isomorphism holds; names and inputs gain a ".seq<j>" part only with several (a group:
// ".seq<first>-<last>", the batch indices of its first and last sequence).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/models/parallelism.hpp"

namespace lightcode::frontend::detail {

struct Step {
  int64_t tokens = 0;  // query positions in this call: the prompt, or 1 when decoding
  int64_t past = 0;    // KV-cache length before the call; 0 for prefill
  int64_t count = 1;   // sequences alike in this group (1: one sequence)
  int64_t first = 0;   // the batch index of its (first) sequence
  int64_t keys() const { return past + tokens; }
  int64_t rows() const { return count * tokens; }  // the group's rows of the shared products
};

struct Iteration {
  std::vector<Step> sequences;  // in batch order; a group stands for `count` sequences
  bool last_logits = false;  // project only each sequence's last token (model_builder.hpp)
  bool paged = false;        // BatchAttention::paged: packed GQA heads, cache appended in place
  Parallelism parallel;      // which device's share of the model (parallelism.hpp)
  bool single() const { return sequences.size() == 1 && sequences.front().count == 1; }
  int64_t tokens() const;  // rows of the shared products: the sum of the Steps' rows
  int64_t sequence_count() const;  // sequences, counting each group's members
  // "seq<j>" for a one-sequence Step, "seq<first>-<last>" for a group (batch indices).
  std::string label(size_t step) const;
};

// x's rows of each sequence along `axis` (the token axis), in order; {x} itself for one.
std::vector<Value> split_sequences(GraphEmitter& e, const Iteration& it, Value x, int axis);
// The per-sequence parts joined back along `axis`; the part itself for one sequence.
Value join_sequences(GraphEmitter& e, const std::vector<Value>& parts, int axis,
                     std::string_view label);
// One attention layer over the batch: q, k, v [1, tokens, ...] are split into each Step's
// rows, `attention(j, q_j, k_j, v_j)` runs under scope "<scope>[.<label>]" and returns that
// Step's merged heads [rows, hidden]; these are joined into [tokens, hidden]. A group's rows
// come as [count, tokens, ...] (one sequence's as [1, tokens, ...]). The emitter's scope is
// `scope` again afterwards.
Value attend_per_sequence(GraphEmitter& e, const Iteration& it, const std::string& scope, Value q,
                          Value k, Value v,
                          const std::function<Value(size_t, Value, Value, Value)>& attention);
// probs [count * heads, n, keys] times v_t [count * heads, hd, keys], heads merged back:
// [count * n, heads * hd] (count: the Step's sequences). `heads` (0: probs' first dimension /
// count) when the product packs several heads' rows into one batch entry (paged GQA).
Value merge_heads(GraphEmitter& e, Value probs, Value v_t, std::string_view view_label,
                  int64_t count = 1, int64_t heads = 0);
// `base` for one sequence, "<base>.<label>" for several: the scopes of per-Step constants and
// the names of per-Step inputs (attention_mask.seq1, past_k_0.seq0-2).
std::string sequence_scope(const Iteration& it, const std::string& base, size_t j);
// Cache input names: "past_k_<layer>" for one sequence, "past_k_<layer>.<label>" for several.
std::string cache_name(const Iteration& it, const char* what, int layer, size_t j);
// The KV-cache inputs [count, kv_heads, past, head_dim] of every layer, as [layer][Step] pairs
// (k, v); a Step without context has none (an invalid Value, node -1).
struct Cache {
  std::vector<std::vector<Value>> k, v;
};
// Only layers [first, last) have inputs (a pipeline stage's); the other layers' entries are
// invalid Values too.
Cache cache_inputs(GraphEmitter& e, const Iteration& it, int layers, int64_t kv_heads,
                   int64_t head_dim, int first = 0, int last = -1);

// A collective of the iteration's tensor-parallel group over x: `kind` all_reduce (the sum,
// x's type) or all_gather (along the last axis, to `gathered`); x itself when the group is one
// rank. Attribute `ranks` is the group's size.
Value tensor_all_reduce(GraphEmitter& e, const Iteration& it, Value x, std::string_view label);
Value tensor_all_gather(GraphEmitter& e, const Iteration& it, Value x, int64_t gathered,
                        std::string_view label);
// The hidden states sent to the next pipeline stage: a send_recv between two devices.
Value send_to_next_stage(GraphEmitter& e, Value x);

// nn.Embedding: TVM wraps negative ids (less, add, where) before the take.
Value embed(GraphEmitter& e, Value table, Value ids);
// torch.nn.LayerNorm (with weight and bias) or LlamaRMSNorm, per `type`, over the last axis;
// makes its own parameters in the emitter's current scope.
Value norm(GraphEmitter& e, NormType type, Value x);
// ACT2FN[hidden_act] on x: gelu_new's tanh form, gelu's erf form, silu as x * sigmoid(x), relu.
Value activation(GraphEmitter& e, Activation act, Value x);
// The 4-D additive mask [count, 1, tokens, keys] that `_update_causal_mask` builds from the
// folded causal part and the attention_mask input [count, keys]; each layer slices it.
Value causal_mask(GraphEmitter& e, Value attention_mask, const Step& step);
// The output projection of `final_hidden` [1, tokens, hidden] to logits, made an output:
// [1, tokens, vocab], or with it.last_logits each sequence's last token sliced out first,
// [1, sequences, vocab]. Its weight is tied to `tied_to` when the config ties the embeddings.
// Under tensor parallelism the weight is the rank's vocabulary share and the logits are
// all-gathered to the whole vocabulary.
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
