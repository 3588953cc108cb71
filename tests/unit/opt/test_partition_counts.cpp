// How many subgraphs the partition (sim/opt/partition.hpp) gives the built-in llama-2-7b and
// opt-1.3b prefill graphs, exactly, and why: every decoder layer adds the same articulations
// and the rest of the graph a fixed number, so count = per_layer x layers + outside, checked
// on 1- and 2-layer variants of each config and on the shipped depth. The count does not
// depend on the sequence length, nor on the profile (the `lightcode` profile's graph differs
// only in its input-type rule, not in its structure).
//   llama-2-7b, 20 per layer: input_layernorm (to_float32, normalise, to_input_dtype, weight),
//     the attention's context matmul, reshape, merge_heads, o_proj.view, o_proj, reshape,
//     attn_residual, post_attention_layernorm (4 again), mlp gate_up, down_proj.view,
//     down_proj, reshape, mlp_residual; outside, 9: embed_tokens index and take, the final
//     norm's 4, lm_head view, dense and logits. 20 x 32 + 9 = 649.
//   opt-1.3b, 15 per layer: self_attn_layer_norm (centre, normalise, gamma, beta), context,
//     reshape, merge_heads, merge_heads.view, out_proj, out_proj.unflatten, out_proj.bias_add,
//     attn_residual, flatten, mlp_residual, unflatten; outside, 12: embed_positions (cumsum,
//     mask, minus_one, past_slice), embeddings, final_layer_norm's 4, lm_head's 3.
//     15 x 24 + 12 = 372. The MLP (final_layer_norm, fc1, relu, fc2) has no articulation: its
//     residual spans 15 generations, within kLongEdgeSpan (16), so it is not set aside.
#include <doctest/doctest.h>

#include "frontend/load_model.hpp"
#include "frontend/models/model_builder.hpp"
#include "hw_models/registry.hpp"
#include "sim/opt/partition.hpp"

using namespace lightcode;

namespace {

int32_t count_with_layers(const std::string& model, int64_t layers) {
  frontend::ModelConfig config = frontend::builtin_model(model);
  config.num_hidden_layers = layers;
  return opt::partition(frontend::build_model(config, frontend::Stage::prefill, 16, frontend::Logits::all)).count;
}

// The graph a profile builds for `model` (run_point's request), partitioned.
int32_t count_shipped(const std::string& model, int64_t length, const std::string& profile) {
  frontend::ModelRequest r;
  r.model = model;
  r.length = length;
  r.input_rule = hw::profile_named(profile).input_rule();
  r.logits = frontend::logits_for("", hw::profile_named(profile).logits_for_every_token());
  return opt::partition(frontend::load_model(r)).count;
}

void check_counts(const std::string& model, int32_t per_layer, int32_t outside, int64_t layers,
                  int32_t expected) {
  CAPTURE(model);
  REQUIRE(frontend::builtin_model(model).num_hidden_layers == layers);
  REQUIRE(per_layer * layers + outside == expected);
  CHECK(count_with_layers(model, 1) == per_layer + outside);
  CHECK(count_with_layers(model, 2) == 2 * per_layer + outside);
  for (int64_t length : {int64_t{5}, int64_t{128}}) {
    CAPTURE(length);
    // The default profile's graph slices the last token before lm_head (logits: last): one cut more.
    CHECK(count_shipped(model, length, "default") == expected + 1);
    CHECK(count_shipped(model, length, "lightcode") == expected);
  }
}

}  // namespace

TEST_CASE("partition of llama-2-7b prefill: 649 subgraphs, 20 per layer x 32 + 9") {
  check_counts("llama-2-7b", 20, 9, 32, 649);
}

TEST_CASE("partition of opt-1.3b prefill: 372 subgraphs, 15 per layer x 24 + 12") {
  check_counts("opt-1.3b", 15, 12, 24, 372);
}
