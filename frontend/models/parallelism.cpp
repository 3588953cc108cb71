#include "frontend/models/parallelism.hpp"

#include "sim/core/error.hpp"

namespace lightcode::frontend {

std::string describe_parallelism(const Parallelism& p) {
  std::string s;
  if (p.tensor > 1) s = "tp" + std::to_string(p.tensor) + ".r" + std::to_string(p.tensor_rank);
  if (p.pipeline > 1) {
    if (!s.empty()) s += ".";
    s += "pp" + std::to_string(p.pipeline) + ".s" + std::to_string(p.pipeline_stage);
  }
  return s;
}

void check_parallelism(const ModelConfig& config, const Parallelism& p) {
  const std::string model = "model '" + config.name + "'";
  if (p.tensor < 1 || p.pipeline < 1) {
    throw Error(model + ": tensor_parallel and pipeline_parallel must be at least 1, got " +
                std::to_string(p.tensor) + " and " + std::to_string(p.pipeline));
  }
  if (p.tensor_rank < 0 || p.tensor_rank >= p.tensor || p.pipeline_stage < 0 ||
      p.pipeline_stage >= p.pipeline) {
    throw Error(model + ": rank " + std::to_string(p.tensor_rank) + " of " + std::to_string(p.tensor) +
                ", stage " + std::to_string(p.pipeline_stage) + " of " + std::to_string(p.pipeline) +
                " is out of range");
  }
  if (p.unsharded()) return;
  if (config.model_type != ModelFamily::llama) {
    throw Error(model + ": tensor and pipeline parallelism are built for llama-family models (model_type llama), not " +
                std::string(family_name(config.model_type)));
  }
  try {
    rank_widths(config.num_attention_heads, config.num_key_value_heads, config.intermediate_size, config.vocab_size, p);
  } catch (const Error& e) {
    throw Error(model + ": " + e.what());
  }
  if (p.tensor > config.vocab_size) {
    throw Error(model + ": tensor_parallel " + std::to_string(p.tensor) + " exceeds vocab_size " +
                std::to_string(config.vocab_size));
  }
  if (p.pipeline > config.num_hidden_layers) {
    throw Error(model + ": pipeline_parallel " + std::to_string(p.pipeline) + " exceeds its " +
                std::to_string(config.num_hidden_layers) + " layers (a stage holds at least one)");
  }
}

RankWidths rank_widths(int64_t heads, int64_t kv_heads, int64_t intermediate, int64_t vocab, const Parallelism& p) {
  auto divided = [&p](int64_t n, const char* what) {
    if (p.tensor < 1 || n % p.tensor != 0) {
      throw Error("tensor_parallel " + std::to_string(p.tensor) + " does not divide " + what + " " + std::to_string(n) +
                  " (Megatron splits them evenly)");
    }
    return n / p.tensor;
  };
  RankWidths w;
  w.heads = divided(heads, "num_attention_heads");
  w.kv_heads = divided(kv_heads, "num_key_value_heads");
  w.intermediate = divided(intermediate, "intermediate_size");
  w.vocab = share_of(vocab, p.tensor, p.tensor_rank);
  return w;
}

int64_t share_of(int64_t n, int64_t parts, int64_t rank) {
  return n / parts + (rank < n % parts ? 1 : 0);
}

std::pair<int64_t, int64_t> stage_layers(int64_t layers, int64_t stages, int64_t stage) {
  int64_t first = 0;
  for (int64_t s = 0; s < stage; ++s) first += share_of(layers, stages, s);
  return {first, first + share_of(layers, stages, stage)};
}

}  // namespace lightcode::frontend
