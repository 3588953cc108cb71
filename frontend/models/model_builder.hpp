#pragma once
// Built-in transformer graphs from a ModelConfig, in the operator vocabulary, shapes, dtypes
// and node order of TVM's unfused (opt level 0) Relay graph-executor JSON, so one cost model
// serves imported and built graphs: builtin gpt2 at 5 tokens is isomorphic to TVM's GPT-2
// prefill graph, node for node in the same order (see tests/unit/frontend/test_models.cpp).
//   prefill: `length` tokens, no cache; outputs logits and per layer the key and value cache
//            [1, kv_heads, length, head_dim]. Logits::all: logits [1, length, vocab] for every
//            prompt token (TVM's traced graph); Logits::last: the final hidden state of the last
//            token only is sliced out and projected, [1, 1, vocab] (what generation needs).
//   encoders (bert, vit; encoder_builder.cpp): prefill only, output the last hidden state
//            [1, length, hidden]; `logits` does not apply.
//   decode:  one new token against a KV cache of `length` past tokens (inputs past_k_<i>,
//            past_v_<i>); attention spans length + 1 keys; outputs logits [1, 1, vocab] and
//            the updated cache [1, kv_heads, length + 1, head_dim].
// Memory nodes carry their role: parameter (weights, folded constants) or input (input_ids,
// attention_mask, past_k_<i>, past_v_<i>). The source reads "builtin:<name>@<stage>/<length>".
// A non-positive length is a lightcode::Error. max_position_embeddings is not enforced:
// sweeps mock longer sequences, as the original does with TVM graphs.
// build_iteration: one forward call of a decoder (gpt2, llama, opt) over a Batch (batch.hpp).
//   The matrix products (projections, MLP, LM head) take every new token of the batch as a row,
//   in sequence order (input_ids [1, total new tokens]); attention runs per sequence: its new
//   tokens against its context + new tokens keys, reading its own cache inputs
//   past_k_<layer>.seq<j> / past_v_<layer>.seq<j> [1, kv_heads, context, head_dim] (none when
//   context is 0) with its own attention_mask.seq<j> [1, context + new_tokens] (llama, opt), and
//   returning its updated cache per layer. Logits::last: [1, sequences, vocab], each sequence's
//   last new token; Logits::all: [1, total new tokens, vocab].
//   A batch of one sequence is exactly build_model's graph (names included): {P, 0} is prefill
//   at P, {1, K} decode at K; build_model is built this way. Encoders take only a batch of one
//   whole prompt {P, 0}. The source reads "builtin:<name>@prefill/<P>", "@decode/<K>" or
//   "@batch/<new>+<context>,...". Errors: validate_batch's, and a graph over limits::kGraphNodes.
//   BatchAttention::paged (llama-family models only) builds the attention as vLLM's kernels
//   run it, OUR READING of vLLM 0.5.4 (paged attention, reshape_and_cache), not a trace of it:
//   sequences next to each other in the batch with the same new tokens and context run as one
//   group (one attention kernel per layer over all their heads, one mask, rotary table and
//   cache input [count, kv_heads, context, head_dim] per group, named
//   past_k_<layer>.seq<first>-<last>); grouped-query heads sharing a KV head are packed as
//   rows of one product, so the KV cache is read once per KV head (no repeat_kv copy); and the
//   cache is appended in place: the layer's outputs are the new tokens' keys and values only,
//   and the join of the cache with them is read inside the attention kernel (the attention
//   fusion rule takes it in), never copied. per_sequence (the default) is Hugging Face's
//   eager loop: one attention per sequence, repeat_kv materialised, the cache concatenated.
//   Paged groups only sequences of equal lengths: vLLM's kernel also runs sequences of
//   different lengths in one launch, which a graph of fixed shapes cannot (each length is its
//   own group here); the serving stage's composed cost prices a batch from one group at the
//   mean context instead (sim/serve/composed_cost.hpp).
#include <cstdint>
#include <string_view>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/models/parallelism.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::frontend {

enum class Stage { prefill, decode };
enum class Logits { last, all };

std::string_view stage_name(Stage s);     // "prefill", "decode"
std::string_view logits_name(Logits l);   // "last", "all"
Logits parse_logits(std::string_view s);  // Error listing the choices
Stage parse_stage(std::string_view s);    // "prefill" | "decode"; Error listing the choices
// A scenario's `logits:` value, or when it is "" the default: all if `every_token`, else last.
Logits logits_for(std::string_view value, bool every_token);

// `parallel`: one device's share of the model (parallelism.hpp; check_parallelism's errors);
// the source then ends in "#<describe_parallelism>". The default builds the whole model.
ir::Graph build_model(const ModelConfig& config, Stage stage, int64_t length, Logits logits,
                      const Parallelism& parallel = {});
enum class BatchAttention { per_sequence, paged };
std::string_view batch_attention_name(BatchAttention a);     // "per_sequence", "paged"
BatchAttention parse_batch_attention(std::string_view name);  // Error listing the choices

// Whether `config`'s family builds batches with `attention` (paged: llama-family models only).
bool builds_batch_attention(const ModelConfig& config, BatchAttention attention);

ir::Graph build_iteration(const ModelConfig& config, const Batch& batch, Logits logits,
                          BatchAttention attention = BatchAttention::per_sequence,
                          const Parallelism& parallel = {});

}  // namespace lightcode::frontend
