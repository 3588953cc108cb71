#pragma once
// How a built-in decoder is split over devices, and which device's share a graph is.
//   tensor parallelism (Megatron-LM, Shoeybi et al. 2019, as vLLM runs Llama): every rank of a
//     group of `tensor` holds a 1/tensor share of each layer: q/k/v and gate/up column-parallel
//     (attention heads and, for grouped-query attention, KV heads split), o_proj and down_proj
//     row-parallel with an all_reduce of their [tokens, hidden] output, the token embedding and
//     lm_head split by vocabulary (an all_reduce after the embedding, an all_gather of the
//     logits). Norms, rotary tables and residual adds are replicated on every rank.
//   pipeline parallelism: the layers split into `pipeline` consecutive stages; stage 0 embeds the
//     tokens, the last one holds the final norm and lm_head; every other stage reads the hidden
//     states [1, tokens, hidden] as an input (`hidden_states`) and each stage but the last ends
//     with a send_recv of them to the next stage.
// Collectives are ops of the graph (kinds all_reduce, all_gather, send_recv) with attribute
// `ranks`, the devices taking part; an interconnect unit runs them. Tensor parallelism 1 and
// pipeline 1 emit exactly the unsharded graph. The sum over ranks and stages of each share's
// matrix-product MACs is the unsharded graph's (tests/unit/frontend/test_sharding.cpp).
// Rank r's vocabulary share is vocab / tensor rows, plus one for the first vocab % tensor ranks
// (ranks then differ by at most one row of the embedding and lm_head).
#include <cstdint>
#include <string>
#include <utility>

#include "frontend/models/model_config.hpp"

namespace lightcode::frontend {

struct Parallelism {
  int64_t tensor = 1;          // ranks of the tensor-parallel group
  int64_t tensor_rank = 0;     // the rank whose share is built, in [0, tensor)
  int64_t pipeline = 1;        // pipeline stages
  int64_t pipeline_stage = 0;  // the stage whose share is built, in [0, pipeline)
  bool unsharded() const { return tensor == 1 && pipeline == 1; }
  int64_t devices() const { return tensor * pipeline; }
};

// "tp4.r0", "pp2.s1", "tp8.r0.pp2.s0"; "" when unsharded. Graph sources carry it.
std::string describe_parallelism(const Parallelism& p);

// lightcode::Error naming the model and the count when `config` cannot be split so: a family
// other than llama (tensor or pipeline above 1), heads, KV heads or intermediate size not
// divisible by `tensor`, fewer layers than stages, a rank or stage out of range.
void check_parallelism(const ModelConfig& config, const Parallelism& p);

// One rank's widths of a decoder layer: its attention heads, KV heads and intermediate columns
// (the whole model's / tensor) and its vocabulary rows (share_of). The model builders and the
// kernel validation's module graphs (module_graphs.hpp) both take their shapes from here, so
// the validated kernels are the sharded pipeline's. lightcode::Error naming the count that
// `p.tensor` does not divide (Megatron splits them evenly; a KV head is never replicated here).
struct RankWidths {
  int64_t heads = 0, kv_heads = 0, intermediate = 0, vocab = 0;
};
RankWidths rank_widths(int64_t heads, int64_t kv_heads, int64_t intermediate, int64_t vocab, const Parallelism& p);

// Rank `rank` of `parts`' share of `n` items: n / parts, plus one for the first n % parts.
int64_t share_of(int64_t n, int64_t parts, int64_t rank);
// The layers [first, last) of stage `stage`: layers / stages each, the first layers % stages
// stages one more.
std::pair<int64_t, int64_t> stage_layers(int64_t layers, int64_t stages, int64_t stage);

}  // namespace lightcode::frontend
