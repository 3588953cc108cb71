#include "frontend/models/model_builder.hpp"

#include <string>

#include "frontend/models/graph_emitter.hpp"
#include "frontend/models/transformer_blocks.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend {
namespace {

// Keeps the largest tensors (the [4, 1, 1, L, L] mask index, L x vocab logits) inside int64.
constexpr int64_t kMaxLength = limits::kSequenceLength.value;

void check_counts(const ModelConfig& config) {
  if (config.num_hidden_layers < 1 || config.num_attention_heads < 1 ||
      config.num_key_value_heads < 1 || config.hidden_size % config.num_attention_heads != 0 ||
      config.num_attention_heads % config.num_key_value_heads != 0) {
    throw Error("model '" + config.name +
                "': inconsistent layer or head counts (load configs with load_model_config)");
  }
}

// The recorded graph of one forward call; `what` follows "builtin:<name>@" in the source.
// Encoders get the iteration's single whole prompt (callers check).
ir::Graph emit(const ModelConfig& config, const detail::Iteration& it, const std::string& what) {
  const std::string model = "model '" + config.name + "'";
  const detail::Step& first = it.sequences.front();
  if (config.model_type == ModelFamily::vit && first.tokens < 2) {
    throw Error(model + ": a vit sequence is the class token plus at least one patch, got " +
                std::to_string(first.tokens));
  }
  // About 90 nodes per layer in every family, plus embeddings, mask and head; a further
  // sequence adds its attention (under 40 nodes per layer), mask, positions and last-token
  // slice. Checked before recording, so a huge batch fails fast instead of filling memory.
  const auto layers = static_cast<size_t>(config.num_hidden_layers);
  const size_t more = it.sequences.size() - 1;  // groups count once
  const size_t hint = layers * (96 + 40 * more) + 64 + 24 * more;
  if (hint > static_cast<size_t>(limits::kGraphNodes.value)) {
    throw Error(model + ": a batch of " + std::to_string(it.sequences.size()) +
                " sequences needs about " + std::to_string(hint) + " graph nodes, over the limit " +
                std::string(limits::kGraphNodes.name) + " = " +
                std::to_string(limits::kGraphNodes.value));
  }
  detail::GraphEmitter e(config.torch_dtype, hint);
  switch (config.model_type) {
    case ModelFamily::gpt2:
      detail::build_gpt2(e, config, it);
      break;
    case ModelFamily::llama:
      detail::build_llama(e, config, it);
      break;
    case ModelFamily::opt:
      detail::build_opt(e, config, it);
      break;
    case ModelFamily::bert:
      detail::build_bert(e, config, first);
      break;
    case ModelFamily::vit:
      detail::build_vit(e, config, first);
      break;
  }
  const std::string share = describe_parallelism(it.parallel);
  return e.finish("builtin:" + config.name + "@" + what + (share.empty() ? "" : "#" + share));
}

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

Stage parse_stage(std::string_view s) {
  if (s == stage_name(Stage::prefill)) return Stage::prefill;
  if (s == stage_name(Stage::decode)) return Stage::decode;
  throw Error("stage: expected 'prefill' or 'decode' (one token against a KV cache), got '" + std::string(s) + "'");
}

Logits logits_for(std::string_view value, bool every_token) {
  if (value.empty()) return every_token ? Logits::all : Logits::last;
  return parse_logits(value);
}

ir::Graph build_model(const ModelConfig& config, Stage stage, int64_t length, Logits logits,
                      const Parallelism& parallel) {
  const std::string what = stage == Stage::decode ? "KV-cache length" : "sequence length";
  const std::string model = "model '" + config.name + "'";
  if (length < 1) {
    throw Error(model + ": " + what + " must be positive, got " + std::to_string(length));
  }
  if (length > kMaxLength) {
    throw Error(model + ": " + what + " " + std::to_string(length) + " exceeds the supported " +
                std::to_string(kMaxLength));
  }
  check_counts(config);
  if (config.encoder() && stage == Stage::decode) {
    throw Error(model + " is an encoder (model_type " + std::string(family_name(config.model_type)) +
                "): it has no KV cache to decode against; use stage prefill");
  }
  check_parallelism(config, parallel);
  detail::Step step;
  step.tokens = stage == Stage::decode ? 1 : length;
  step.past = stage == Stage::decode ? length : 0;
  detail::Iteration it;
  it.sequences = {step};
  it.last_logits = logits == Logits::last;
  it.parallel = parallel;
  return emit(config, it,
              std::string(stage_name(stage)) + "/" + std::to_string(length));
}

std::string_view batch_attention_name(BatchAttention a) {
  return a == BatchAttention::paged ? "paged" : "per_sequence";
}

BatchAttention parse_batch_attention(std::string_view name) {
  if (name == "per_sequence") return BatchAttention::per_sequence;
  if (name == "paged") return BatchAttention::paged;
  throw Error("batch attention: expected 'per_sequence' or 'paged', got '" + std::string(name) + "'");
}

bool builds_batch_attention(const ModelConfig& config, BatchAttention attention) {
  return attention == BatchAttention::per_sequence || config.model_type == ModelFamily::llama;
}

ir::Graph build_iteration(const ModelConfig& config, const Batch& batch, Logits logits,
                          BatchAttention attention, const Parallelism& parallel) {
  validate_batch(batch);
  check_counts(config);
  check_parallelism(config, parallel);
  const std::string model = "model '" + config.name + "'";
  const SequenceSlot& first = batch.sequences.front();
  const bool single = batch.sequences.size() == 1;
  if (config.encoder() && !(single && first.context == 0)) {
    throw Error(model + " is an encoder (model_type " +
                std::string(family_name(config.model_type)) +
                "): it takes a batch of one whole prompt (context 0), got the batch " +
                describe_batch(batch));
  }
  const bool grouped = attention == BatchAttention::paged;
  if (!builds_batch_attention(config, attention)) {
    throw Error(model + ": paged batch attention is built for llama-family models (model_type llama), not " +
                std::string(family_name(config.model_type)) + "; use per_sequence");
  }
  detail::Iteration it;
  it.last_logits = logits == Logits::last;
  it.paged = grouped;
  it.parallel = parallel;
  for (size_t i = 0; i < batch.sequences.size(); ++i) {
    const SequenceSlot& s = batch.sequences[i];
    if (grouped && !it.sequences.empty()) {
      detail::Step& last = it.sequences.back();
      if (last.tokens == s.new_tokens && last.past == s.context) {
        ++last.count;
        continue;
      }
    }
    detail::Step step;
    step.tokens = s.new_tokens;
    step.past = s.context;
    step.first = static_cast<int64_t>(i);
    it.sequences.push_back(step);
  }
  // The names build_model gives the same graph, so a one-sequence batch is indistinguishable.
  std::string source = "batch/" + describe_batch(batch);
  if (single && first.context == 0) source = "prefill/" + std::to_string(first.new_tokens);
  if (single && first.context > 0 && first.new_tokens == 1) {
    source = "decode/" + std::to_string(first.context);
  }
  if (grouped) source = "paged/" + describe_batch(batch);
  return emit(config, it, source);
}

}  // namespace lightcode::frontend
