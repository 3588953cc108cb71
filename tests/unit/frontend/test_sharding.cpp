// Tensor and pipeline parallelism of built-in decoders (frontend/models/parallelism.hpp): each
// device's share is a real graph; the shares' matrix-product MACs add up to the whole model's
// exactly; one rank and one stage build the unsharded graph itself; collectives sit where
// Megatron puts them; models that cannot be split so are refused with the reason.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/models/module_graphs.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/isomorphism.hpp"
#include "tests/support/graph_queries.hpp"

using namespace lightcode;
using frontend::Logits;
using frontend::Parallelism;
using test::macs_of;

namespace {

int64_t product_macs(const ir::Graph& g) { return macs_of(g, ir::OpKind::dense) + macs_of(g, ir::OpKind::matmul); }

std::map<std::string, int> collectives(const ir::Graph& g) {
  std::map<std::string, int> count;
  for (const ir::Node& n : g.nodes()) {
    if (ir::is_collective(n.kind)) ++count[std::string(ir::op_kind_name(n.kind)) + "/" + std::string(n.attr("ranks"))];
  }
  return count;
}

frontend::ModelConfig small(const char* name, int64_t layers) {
  frontend::ModelConfig c = frontend::builtin_model(name);
  c.num_hidden_layers = layers;
  return c;
}

}  // namespace

TEST_CASE("sharding: the shards' MACs add up to the whole model's, for every split") {
  // Llama-2-70B's grouped-query heads (64 / 8), Llama-2-7B's multi-head; GPT-2's vocabulary
  // (50257) is not llama, so the uneven vocabulary split is taken with a Llama shape below.
  for (const char* name : {"llama-2-70b", "llama-2-7b"}) {
    const frontend::ModelConfig c = small(name, 5);
    for (frontend::Stage stage : {frontend::Stage::prefill, frontend::Stage::decode}) {
      const int64_t length = stage == frontend::Stage::prefill ? 37 : 300;
      const int64_t whole = product_macs(frontend::build_model(c, stage, length, Logits::all));
      for (int64_t tp : {1, 2, 4, 8}) {
        for (int64_t pp : {1, 2, 5}) {
          CAPTURE(name);
          CAPTURE(tp);
          CAPTURE(pp);
          int64_t sum = 0;
          for (int64_t r = 0; r < tp; ++r) {
            for (int64_t s = 0; s < pp; ++s) {
              const ir::Graph g = frontend::build_model(c, stage, length, Logits::all, Parallelism{tp, r, pp, s});
              g.validate();
              sum += product_macs(g);
            }
          }
          CHECK(sum == whole);
        }
      }
    }
  }
}

TEST_CASE("sharding: an uneven vocabulary is shared out row by row and still sums exactly") {
  frontend::ModelConfig c = small("llama-2-7b", 2);
  c.vocab_size = 32003;  // 3 ranks of 4 hold one row more
  const int64_t whole = product_macs(frontend::build_model(c, frontend::Stage::prefill, 9, Logits::all));
  int64_t sum = 0;
  for (int64_t r = 0; r < 4; ++r) {
    const ir::Graph g = frontend::build_model(c, frontend::Stage::prefill, 9, Logits::all, Parallelism{4, r, 1, 0});
    for (const ir::Node& n : g.nodes()) {
      if (n.name == "lm_head.weight") CHECK(n.output().shape[0] == (r < 3 ? 8001 : 8000));
    }
    sum += product_macs(g);
  }
  CHECK(sum == whole);
}

TEST_CASE("sharding: one rank and one stage is the unsharded graph, names and source included") {
  const frontend::ModelConfig c = small("llama-2-7b", 3);
  const ir::Graph whole = frontend::build_model(c, frontend::Stage::decode, 40, Logits::last);
  const ir::Graph one = frontend::build_model(c, frontend::Stage::decode, 40, Logits::last, Parallelism{1, 0, 1, 0});
  REQUIRE(one.size() == whole.size());
  CHECK(one.source() == whole.source());
  for (size_t i = 0; i < whole.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    CHECK(one.node(id).name == whole.node(id).name);
    CHECK(one.node(id).outputs == whole.node(id).outputs);
  }
  CHECK(collectives(one).empty());
}

TEST_CASE("sharding: collectives where Megatron puts them, with the group's size") {
  const frontend::ModelConfig c = small("llama-2-70b", 4);
  const ir::Graph g = frontend::build_model(c, frontend::Stage::prefill, 16, Logits::last, Parallelism{8, 0, 1, 0});
  // An all_reduce after the embedding and after o_proj and down_proj of each layer; the logits
  // all-gathered.
  const std::map<std::string, int> expected{{"all_reduce/8", 1 + 2 * 4}, {"all_gather/8", 1}};
  CHECK(collectives(g) == expected);
  CHECK(g.source() == "builtin:llama-2-70b@prefill/16#tp8.r0");
  for (const ir::Node& n : g.nodes()) {
    if (n.name == "model.layers.0.self_attn.o_proj.all_reduce") CHECK(n.output().shape == ir::Shape{16, 8192});
    if (n.name == "model.layers.0.self_attn.q_proj.weight") CHECK(n.output().shape == ir::Shape{8192 / 8, 8192});
    if (n.name == "model.layers.0.self_attn.k_proj.weight") CHECK(n.output().shape == ir::Shape{128, 8192});
    if (n.name == "model.layers.0.mlp.down_proj.weight") CHECK(n.output().shape == ir::Shape{8192, 28672 / 8});
  }
  // Every head of the graph but the all-gathered logits is the rank's own KV cache.
  int64_t full_logits = 0;
  for (const ir::Input& h : g.heads()) {
    if (g.node(h.node).kind == ir::OpKind::all_gather) full_logits += g.node(h.node).output().shape[2];
  }
  CHECK(full_logits == c.vocab_size);
}

TEST_CASE("sharding: pipeline stages read and send the hidden states") {
  const frontend::ModelConfig c = small("llama-2-7b", 5);
  const ir::Graph first = frontend::build_model(c, frontend::Stage::decode, 10, Logits::last, Parallelism{1, 0, 2, 0});
  const ir::Graph last = frontend::build_model(c, frontend::Stage::decode, 10, Logits::last, Parallelism{1, 0, 2, 1});
  CHECK(collectives(first) == std::map<std::string, int>{{"send_recv/2", 1}});
  CHECK(collectives(last).empty());
  auto inputs = [](const ir::Graph& g) {
    std::map<std::string, ir::Shape> in;
    for (const ir::Node& n : g.nodes()) {
      if (n.role == ir::MemoryRole::input) in[n.name] = n.output().shape;
    }
    return in;
  };
  const auto in_first = inputs(first), in_last = inputs(last);
  // Stage 0 holds layers 0-2 (5 = 3 + 2), stage 1 layers 3-4 and the hidden states it receives.
  CHECK(in_first.count("input_ids") == 1);
  CHECK(in_first.count("past_k_2") == 1);
  CHECK(in_first.count("past_k_3") == 0);
  CHECK(in_last.count("input_ids") == 0);
  CHECK(in_last.count("past_k_2") == 0);
  CHECK(in_last.count("past_k_4") == 1);
  CHECK(in_last.at("hidden_states") == ir::Shape{1, 1, c.hidden_size});
}

TEST_CASE("sharding: splits a model cannot take are refused with the reason") {
  const frontend::ModelConfig llama = small("llama-2-70b", 2);
  auto refuses = [](const frontend::ModelConfig& c, Parallelism p, const std::string& part) {
    try {
      frontend::build_model(c, frontend::Stage::prefill, 8, Logits::last, p);
      FAIL("accepted " << frontend::describe_parallelism(p));
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(part) != std::string::npos);
    }
  };
  refuses(llama, Parallelism{16, 0, 1, 0}, "does not divide num_key_value_heads 8");
  refuses(llama, Parallelism{3, 0, 1, 0}, "does not divide num_attention_heads 64");
  refuses(llama, Parallelism{1, 0, 3, 0}, "exceeds its 2 layers");
  refuses(llama, Parallelism{2, 2, 1, 0}, "out of range");
  refuses(frontend::builtin_model("gpt2"), Parallelism{2, 0, 1, 0}, "llama-family");
  // The batch builder takes the same shares.
  const frontend::Batch batch{{{1, 30}, {4, 0}}};
  const ir::Graph g = frontend::build_iteration(llama, batch, Logits::last, frontend::BatchAttention::paged,
                                                Parallelism{2, 1, 1, 0});
  g.validate();
  CHECK(collectives(g).at("all_reduce/2") == 5);
}

TEST_CASE("sharding: the kernel validation's module graphs are the sharded model's kernels, at every measured TP") {
  // The reference CSV (vidur_h100_llama2_kernels.csv) measures Llama-2-7B and -70B at tensor
  // parallelism 1-8; `lightcode validate` runs its module graphs. Each rank's projections must be
  // the ones the sharded builder emits, so the validated bounds hold for the sharded pipeline.
  for (const char* name : {"llama-2-7b", "llama-2-70b"}) {
    const frontend::ModelConfig c = small(name, 1);
    for (int64_t tp : {1, 2, 4, 8}) {
      CAPTURE(name);
      CAPTURE(tp);
      const int64_t tokens = 64;
      const ir::Graph model = frontend::build_model(c, frontend::Stage::prefill, tokens, Logits::all, Parallelism{tp, 0, 1, 0});
      auto weights = [](const ir::Graph& g) {
        std::map<std::string, ir::Shape> w;
        for (const ir::Node& n : g.nodes()) {
          for (const char* proj : {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}) {
            if (test::ends_with(n.name, std::string(proj) + ".weight")) w[proj] = n.output().shape;
          }
        }
        return w;
      };
      frontend::LlamaShape shape;
      shape.tokens = tokens;
      shape.hidden = c.hidden_size;
      shape.intermediate = c.intermediate_size;
      shape.heads = c.num_attention_heads;
      shape.kv_heads = c.num_key_value_heads;
      shape.vocab = c.vocab_size;
      shape.tensor_parallel = tp;
      std::map<std::string, ir::Shape> modules;
      for (frontend::LlamaModule m : {frontend::LlamaModule::attn_pre_proj, frontend::LlamaModule::attn_post_proj,
                                      frontend::LlamaModule::mlp_up_proj, frontend::LlamaModule::mlp_down_proj}) {
        for (const auto& [proj, s] : weights(frontend::llama_module_graph(m, shape))) modules[proj] = s;
      }
      CHECK(modules.size() == 7);
      CHECK(weights(model) == modules);
    }
  }
}
