#include "frontend/models/model_builder.hpp"

#include <string>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/transformer_blocks.hpp"
#include "sim/core/error.hpp"

namespace lightcode::frontend {
namespace {

// Keeps the largest tensors (the [4, 1, 1, L, L] mask index, L x vocab logits) inside int64.
constexpr int64_t kMaxLength = int64_t{1} << 24;

}  // namespace

std::string_view stage_name(Stage s) {
  return s == Stage::decode ? "decode" : "prefill";
}

std::string_view logits_name(Logits l) {
  return l == Logits::all ? "all" : "last";
}

Logits parse_logits(std::string_view s) {
  if (s == "last") return Logits::last;
  if (s == "all") return Logits::all;
  throw Error("logits: expected 'last' or 'all', got '" + std::string(s) + "'");
}

Logits logits_for(std::string_view value, bool every_token) {
  if (value.empty()) return every_token ? Logits::all : Logits::last;
  return parse_logits(value);
}

ir::Graph build_model(const ModelConfig& config, Stage stage, int64_t length, Logits logits) {
  const std::string what = stage == Stage::decode ? "KV-cache length" : "sequence length";
  const std::string model = "model '" + config.name + "'";
  if (length < 1) {
    throw Error(model + ": " + what + " must be positive, got " + std::to_string(length));
  }
  if (length > kMaxLength) {
    throw Error(model + ": " + what + " " + std::to_string(length) + " exceeds the supported " +
                std::to_string(kMaxLength));
  }
  if (config.num_hidden_layers < 1 || config.num_attention_heads < 1 ||
      config.num_key_value_heads < 1 || config.hidden_size % config.num_attention_heads != 0 ||
      config.num_attention_heads % config.num_key_value_heads != 0) {
    throw Error(model +
                ": inconsistent layer or head counts (load configs with load_model_config)");
  }
  if (config.encoder() && stage == Stage::decode) {
    throw Error(model + " is an encoder (model_type " + std::string(family_name(config.model_type)) +
                "): it has no KV cache to decode against; use stage prefill");
  }
  if (config.model_type == ModelFamily::vit && length < 2) {
    throw Error(model + ": a vit sequence is the class token plus at least one patch, got " + std::to_string(length));
  }
  detail::Step step;
  step.tokens = stage == Stage::decode ? 1 : length;
  step.past = stage == Stage::decode ? length : 0;
  step.last_logits = logits == Logits::last;

  // About 90 nodes per layer in every family, plus embeddings, mask and head.
  detail::GraphEmitter e(config.torch_dtype,
                         static_cast<size_t>(config.num_hidden_layers) * 96 + 64);
  switch (config.model_type) {
    case ModelFamily::gpt2:
      detail::build_gpt2(e, config, step);
      break;
    case ModelFamily::llama:
      detail::build_llama(e, config, step);
      break;
    case ModelFamily::opt:
      detail::build_opt(e, config, step);
      break;
    case ModelFamily::bert:
      detail::build_bert(e, config, step);
      break;
    case ModelFamily::vit:
      detail::build_vit(e, config, step);
      break;
  }
  return e.finish("builtin:" + config.name + "@" + std::string(stage_name(stage)) + "/" +
                  std::to_string(length));
}

}  // namespace lightcode::frontend
