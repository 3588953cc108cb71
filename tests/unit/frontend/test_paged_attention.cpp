// BatchAttention::paged (frontend/models/model_builder.hpp): sequences of equal lengths next to
// each other run one attention per layer, grouped-query heads are packed so each KV head is
// read once, the cache is appended in place (the layer returns only the new keys and values,
// and the attention fusion takes the join of the cache in), with exactly the per-sequence
// build's products; llama-family models only.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/fusion.hpp"
#include "tests/support/graph_queries.hpp"

using namespace lightcode;
using test::ends_with;
using test::macs_of;
using frontend::Batch;
using frontend::BatchAttention;
using frontend::Logits;

namespace {

// Three decodes at context 500, one at 37, a 16-token prompt.
const Batch kAlike{{{1, 500}, {1, 500}, {1, 500}, {1, 37}, {16, 0}}};

}  // namespace

TEST_CASE("paged: alike sequences share one attention per layer and each KV head is read once") {
  for (const char* name : {"mistral-7b", "llama-2-7b"}) {  // grouped-query and multi-head
    CAPTURE(name);
    frontend::ModelConfig c = frontend::builtin_model(name);
    c.num_hidden_layers = 2;
    const int64_t kv = c.num_key_value_heads, rep = c.num_attention_heads / kv, hd = c.head_dim();
    const ir::Graph g = frontend::build_iteration(c, kAlike, Logits::last, BatchAttention::paged);
    g.validate();
    CHECK(g.source() == "builtin:" + c.name + "@paged/1+500,1+500,1+500,1+37,16+0");

    // Score products [groups x KV heads, packed query rows, keys], one per group and layer.
    std::map<std::vector<int64_t>, int64_t> scores;
    for (const ir::Node& n : g.nodes()) {
      if (n.kind == ir::OpKind::matmul && ends_with(n.name, ".scores")) {
        const ir::Shape& s = n.output().shape;
        ++scores[{s[0], s[1], s[2]}];
      }
      CHECK(n.name.find("repeat_kv") == std::string::npos);  // no copy of the KV heads
    }
    const std::map<std::vector<int64_t>, int64_t> expected{
        {{3 * kv, rep, 501}, 2}, {{kv, rep, 38}, 2}, {{kv, rep * 16, 16}, 2}};
    CHECK(scores == expected);

    // One cache input per group with context, its sequences as the leading dimension.
    std::map<std::string, ir::Shape> caches;
    for (const ir::Node& n : g.nodes()) {
      if (n.role == ir::MemoryRole::input && n.name.rfind("past_", 0) == 0) caches[n.name] = n.output().shape;
    }
    CHECK(caches.size() == 2 * 2 * 2);
    CHECK(caches.at("past_k_1.seq0-2") == ir::Shape{3, kv, 500, hd});
    CHECK(caches.at("past_v_0.seq3") == ir::Shape{1, kv, 37, hd});
    // Outputs: the logits, then only the new tokens' keys and values (appended in place).
    REQUIRE(g.heads().size() == 1 + 2 * 3 * 2);
    std::map<std::vector<int64_t>, int64_t> appended;
    for (size_t i = 1; i < g.heads().size(); ++i) {
      const ir::Input h = g.heads()[i];
      const ir::Shape& s = g.node(h.node).outputs[static_cast<size_t>(h.output)].shape;
      ++appended[{s[0], s[1], s[2], s[3]}];
    }
    const std::map<std::vector<int64_t>, int64_t> new_rows{
        {{3, kv, 1, hd}, 4}, {{1, kv, 1, hd}, 4}, {{1, kv, 16, hd}, 4}};
    CHECK(appended == new_rows);

    // The same work as the per-sequence build: packing changes layouts, not products.
    const ir::Graph each = frontend::build_iteration(c, kAlike, Logits::last);
    CHECK(macs_of(g, ir::OpKind::matmul) == macs_of(each, ir::OpKind::matmul));
    CHECK(macs_of(g, ir::OpKind::dense) == macs_of(each, ir::OpKind::dense));
    CHECK(g.size() < each.size());
  }
}

TEST_CASE("paged: alike prompts share a group, each keeps its own last-token logits") {
  frontend::ModelConfig c = frontend::builtin_model("llama-3-8b");
  c.num_hidden_layers = 1;
  const Batch prompts{{{8, 0}, {8, 0}, {1, 5}}};
  const ir::Graph g = frontend::build_iteration(c, prompts, Logits::last, BatchAttention::paged);
  g.validate();
  const ir::Input logits = g.heads().front();
  CHECK(g.node(logits.node).outputs[static_cast<size_t>(logits.output)].shape == ir::Shape{1, 3, c.vocab_size});
  int64_t masks = 0;
  for (const ir::Node& n : g.nodes()) {
    if (n.role == ir::MemoryRole::input && n.name.rfind("attention_mask", 0) == 0) {
      ++masks;
      CHECK(n.output().shape == (n.name == "attention_mask.seq0-1" ? ir::Shape{2, 8} : ir::Shape{1, 6}));
    }
  }
  CHECK(masks == 2);
  const ir::Graph each = frontend::build_iteration(c, prompts, Logits::last);
  CHECK(macs_of(g, ir::OpKind::matmul) == macs_of(each, ir::OpKind::matmul));
  CHECK(macs_of(g, ir::OpKind::dense) == macs_of(each, ir::OpKind::dense));
}

TEST_CASE("paged: the attention kernel reads the cache where it lies, per_sequence copies it") {
  frontend::ModelConfig c = frontend::builtin_model("mistral-7b");
  c.num_hidden_layers = 1;
  const Batch decodes{{{1, 300}, {1, 300}}};
  const std::vector<const ir::FusionRule*> rules{&ir::fusion_rule_named("attention")};
  auto joins_inside = [&](BatchAttention a) {
    const ir::Graph g = frontend::build_iteration(c, decodes, Logits::last, a);
    int64_t kernels = 0, joins = 0;
    for (const ir::FusedKernel& k : ir::match_fusions(g, rules)) {
      ++kernels;
      for (ir::NodeId m : k.members) joins += g.node(m).kind == ir::OpKind::concatenate ? 1 : 0;
    }
    return std::pair<int64_t, int64_t>{kernels, joins};
  };
  CHECK(joins_inside(BatchAttention::paged) == std::pair<int64_t, int64_t>{1, 2});  // one kernel, K's and V's join
  // Hugging Face returns the joined cache: the join is a graph output and stays a copy.
  CHECK(joins_inside(BatchAttention::per_sequence) == std::pair<int64_t, int64_t>{2, 0});
}

TEST_CASE("paged attention: llama-family models only, and its name parses") {
  const frontend::ModelConfig gpt2 = frontend::builtin_model("gpt2");
  CHECK_THROWS_WITH(frontend::build_iteration(gpt2, kAlike, Logits::last, BatchAttention::paged),
                    "model 'gpt2': paged batch attention is built for llama-family models (model_type llama), "
                    "not gpt2; use per_sequence");
  CHECK(frontend::parse_batch_attention("paged") == BatchAttention::paged);
  CHECK(frontend::batch_attention_name(BatchAttention::per_sequence) == "per_sequence");
  CHECK_THROWS_WITH(frontend::parse_batch_attention("vllm"),
                    "batch attention: expected 'per_sequence' or 'paged', got 'vllm'");
}
