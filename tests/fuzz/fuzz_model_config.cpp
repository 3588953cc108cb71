// Fuzz target: a Hugging Face style model config (configs/models/*.yaml) through
// frontend::parse_model_config; an accepted config that is small enough is built for prefill
// and decode at 8 tokens and the graphs validated.
#include <cstdint>
#include <string>

#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

namespace {

// The loader's own bounds allow 1024 layers x 1M hidden, legitimately heavy to build: the
// build is skipped above this many (layers x hidden), and above this vocabulary or MLP width.
constexpr int64_t kMaxLayersTimesHidden = int64_t{1} << 16;
constexpr int64_t kMaxWidth = int64_t{1} << 20;

void check_config(const frontend::ModelConfig& c) {
  fuzz::require(c.num_hidden_layers >= 1, "num_hidden_layers < 1");
  fuzz::require(c.hidden_size >= 1, "hidden_size < 1");
  fuzz::require(c.num_attention_heads >= 1 && c.hidden_size % c.num_attention_heads == 0,
                "hidden_size not divisible by num_attention_heads");
  fuzz::require(c.num_key_value_heads >= 1 && c.num_attention_heads % c.num_key_value_heads == 0,
                "num_attention_heads not divisible by num_key_value_heads");
  fuzz::require(c.intermediate_size >= 1, "intermediate_size < 1");
  fuzz::require(c.vocab_size >= 1, "vocab_size < 1");
  // Only opt reads it (its position table); the other families leave it 0.
  fuzz::require((c.model_type == frontend::ModelFamily::opt) == (c.max_position_embeddings >= 1),
                "max_position_embeddings set for a family that does not read it, or missing for opt");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run(data, size, [](std::string_view text) {
    const frontend::ModelConfig c = frontend::parse_model_config(text, "<fuzz>/model.yaml");
    check_config(c);
    if (c.num_hidden_layers > kMaxLayersTimesHidden / c.hidden_size) return;
    if (c.intermediate_size > kMaxWidth || c.vocab_size > kMaxWidth) return;
    for (const frontend::Stage stage : {frontend::Stage::prefill, frontend::Stage::decode}) {
      const ir::Graph g = frontend::build_model(c, stage, 8, frontend::Logits::last);
      fuzz::require(g.size() > 0, "an empty graph");
      g.validate();
    }
  });
}
