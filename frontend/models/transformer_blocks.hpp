#pragma once
// Internal to the model builders: the pieces Hugging Face transformer families share, each
// lowered the way TVM's PyTorch frontend (Relay at opt level 0, constants folded) lowers the
// PyTorch module, and the per-family builders that assemble them.
// A Step is one forward call: `tokens` new tokens attend to `past + tokens` keys.
#include <cstdint>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/model_config.hpp"

namespace lightcode::frontend::detail {

struct Step {
  int64_t tokens = 0;  // query positions in this call: the prompt, or 1 when decoding
  int64_t past = 0;    // KV-cache length before the call; 0 for prefill
  bool last_logits = false;  // project only the last token's hidden state (model_builder.hpp)
  int64_t keys() const { return past + tokens; }
};

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
// [1, tokens, vocab], or with step.last_logits the last token sliced out first, [1, 1, vocab].
// Its weight is tied to `tied_to` when the config ties the embeddings.
void lm_head(GraphEmitter& e, const ModelConfig& c, const Step& step, Value final_hidden, const char* tied_to);
// softmax over the last axis; float16 upcasts to float32 around it, as OPT does.
Value softmax_upcast(GraphEmitter& e, Value x);

void build_gpt2(GraphEmitter& e, const ModelConfig& c, const Step& step);
void build_llama(GraphEmitter& e, const ModelConfig& c, const Step& step);
void build_opt(GraphEmitter& e, const ModelConfig& c, const Step& step);
void build_bert(GraphEmitter& e, const ModelConfig& c, const Step& step);  // encoder_builder.cpp
void build_vit(GraphEmitter& e, const ModelConfig& c, const Step& step);

}  // namespace lightcode::frontend::detail
