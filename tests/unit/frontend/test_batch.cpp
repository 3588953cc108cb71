// Built-in decoders over a batch of sequences (build_iteration): a batch of one is exactly
// the prefill or decode graph; a mixed batch shares its matrix products across every new token
// and runs attention per sequence over its own cache.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/ir/metrics.hpp"
#include "tests/support/graph_diff.hpp"
#include "tests/support/graph_queries.hpp"

using namespace lightcode;
using test::ends_with;
using test::macs_of;
using frontend::Batch;
using frontend::Logits;
using frontend::Stage;

namespace {

// ordered_difference ignores names; a one-sequence batch must match them too.
std::string exact_difference(const ir::Graph& a, const ir::Graph& b) {
  const std::string d = test::ordered_difference(a, b);
  if (!d.empty()) return d;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (a.node(id).name != b.node(id).name) {
      return "names differ at\n  " + test::describe_node(a, id) + "\n  " +
             test::describe_node(b, id);
    }
  }
  if (a.source() != b.source()) return "sources " + a.source() + " vs " + b.source();
  return "";
}



std::string error_of(const frontend::ModelConfig& c, const Batch& b) {
  try {
    frontend::build_iteration(c, b, Logits::last);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

const Batch kMixed{{{128, 0}, {1, 500}, {1, 37}}};

}  // namespace

TEST_CASE("a batch of one whole prompt is the prefill graph and one token the decode step") {
  for (const char* name : {"gpt2", "llama-2-7b", "opt-1.3b"}) {
    const frontend::ModelConfig c = frontend::builtin_model(name);
    for (const Logits logits : {Logits::last, Logits::all}) {
      CAPTURE(name);
      CAPTURE(frontend::logits_name(logits));
      const ir::Graph prefill = frontend::build_iteration(c, Batch{{{7, 0}}}, logits);
      CHECK(exact_difference(prefill, frontend::build_model(c, Stage::prefill, 7, logits)) == "");
      const ir::Graph decode = frontend::build_iteration(c, Batch{{{1, 9}}}, logits);
      CHECK(exact_difference(decode, frontend::build_model(c, Stage::decode, 9, logits)) == "");
      CHECK(exact_difference(prefill, decode) != "");  // the comparison can fail
    }
  }
}

TEST_CASE("a prefill chunk after earlier chunks attends to its context") {
  const frontend::ModelConfig c = frontend::builtin_model("gpt2");
  const ir::Graph g = frontend::build_iteration(c, Batch{{{64, 256}}}, Logits::last);
  g.validate();
  CHECK(g.source() == "builtin:gpt2@batch/64+256");
  for (const ir::Node& n : g.nodes()) {
    if (ends_with(n.name, ".scores")) CHECK(n.output().shape == ir::Shape{12, 64, 320});
    if (n.name == "past_k_0") CHECK(n.output().shape == ir::Shape{1, 12, 256, 64});
  }
}

TEST_CASE("a mixed batch shares its products and runs attention per sequence") {
  for (const char* name : {"gpt2", "llama-2-7b"}) {
    CAPTURE(name);
    const frontend::ModelConfig c = frontend::builtin_model(name);
    const int64_t total = 130;  // 128 + 1 + 1 new tokens
    const int64_t layers = c.num_hidden_layers;
    for (const Logits logits : {Logits::last, Logits::all}) {
      CAPTURE(frontend::logits_name(logits));
      const ir::Graph g = frontend::build_iteration(c, kMixed, logits);
      g.validate();
      CHECK(g.source() == "builtin:" + c.name + "@batch/128+0,1+500,1+37");

      // Every projection and MLP product has one row per new token; the LM head one per
      // sequence (last) or per new token (all).
      const int64_t head_rows = logits == Logits::last ? 3 : total;
      int dense = 0;
      for (const ir::Node& n : g.nodes()) {
        if (n.kind != ir::OpKind::dense) continue;
        ++dense;
        const bool lm_head = n.name.rfind("lm_head.", 0) == 0;
        CHECK(n.input_type(0).shape[0] == (lm_head ? head_rows : total));
      }
      const ir::Graph prefill = frontend::build_model(c, Stage::prefill, total, logits);
      CHECK(dense == std::count_if(prefill.nodes().begin(), prefill.nodes().end(),
                                   [](const ir::Node& n) { return n.kind == ir::OpKind::dense; }));

      // One score product per sequence per layer, [heads, new tokens, context + new tokens];
      // the builders keep all query heads in the product's batch axis (llama's KV heads are
      // repeated to the query heads before it).
      std::map<std::pair<int64_t, int64_t>, int64_t> scores;  // (rows, keys) -> products
      for (const ir::Node& n : g.nodes()) {
        if (n.kind != ir::OpKind::matmul || !ends_with(n.name, ".scores")) continue;
        const ir::Shape& s = n.output().shape;
        CHECK(s[0] == c.num_attention_heads);
        ++scores[{s[1], s[2]}];
      }
      const std::map<std::pair<int64_t, int64_t>, int64_t> expected{
          {{128, 128}, layers}, {{1, 501}, layers}, {{1, 38}, layers}};
      CHECK(scores == expected);

      // The cache: sequence 0 has none to read; 1 and 2 read theirs, every sequence returns
      // its updated cache per layer.
      const int64_t kv = c.num_key_value_heads;
      const int64_t hd = c.head_dim();
      int cache_inputs = 0;
      for (const ir::Node& n : g.nodes()) {
        if (n.role != ir::MemoryRole::input || n.name.rfind("past_", 0) != 0) continue;
        ++cache_inputs;
        CHECK(!ends_with(n.name, ".seq0"));
        const int64_t context = ends_with(n.name, ".seq1") ? 500 : 37;
        CHECK(n.output().shape == ir::Shape{1, kv, context, hd});
      }
      CHECK(cache_inputs == 2 * 2 * layers);
      REQUIRE(g.heads().size() == static_cast<size_t>(1 + 2 * 3 * layers));
      const ir::Input out = g.heads().front();
      CHECK(g.node(out.node).outputs[static_cast<size_t>(out.output)].shape ==
            ir::Shape{1, head_rows, c.vocab_size});

      // Exact work: the shared products are those of a 130-token prefill (each is linear in
      // its rows; the LM head differs only in its row count), and the attention products are the
      // separate sequences' own, so the batch does exactly the sum of the three one-sequence
      // iterations' MACs.
      const int64_t prefill_head_rows = logits == Logits::last ? 1 : total;
      CHECK(macs_of(g, ir::OpKind::dense) ==
            macs_of(prefill, ir::OpKind::dense) +
                (head_rows - prefill_head_rows) * c.hidden_size * c.vocab_size);
      int64_t matmul = 0;
      int64_t all = 0;
      for (const frontend::SequenceSlot& s : kMixed.sequences) {
        const ir::Graph one = frontend::build_iteration(c, Batch{{s}}, logits);
        matmul += macs_of(one, ir::OpKind::matmul);
        all += macs_of(one, ir::OpKind::matmul) + macs_of(one, ir::OpKind::dense);
      }
      CHECK(macs_of(g, ir::OpKind::matmul) == matmul);
      CHECK(macs_of(g, ir::OpKind::matmul) + macs_of(g, ir::OpKind::dense) == all);
    }
  }
}

TEST_CASE("opt builds a mixed batch with a mask and positions per sequence") {
  const frontend::ModelConfig c = frontend::builtin_model("opt-1.3b");
  const ir::Graph g = frontend::build_iteration(c, kMixed, Logits::last);
  g.validate();
  int masks = 0;
  for (const ir::Node& n : g.nodes()) {
    if (n.name.rfind("attention_mask.seq", 0) == 0) ++masks;
  }
  CHECK(masks == 3);
}

TEST_CASE("bad batches name the sequence and the rule") {
  const frontend::ModelConfig c = frontend::builtin_model("gpt2");
  const int64_t limit = limits::kSequenceLength.value;
  CHECK(error_of(c, Batch{}) == "batch: no sequences; an iteration needs at least one");
  CHECK(error_of(c, Batch{{{4, 0}, {0, 3}}}) ==
        "batch sequence 1: new_tokens must be at least 1, got 0");
  CHECK(error_of(c, Batch{{{1, -2}}}) == "batch sequence 0: context must be non-negative, got -2");
  CHECK(error_of(c, Batch{{{1, 0}, {1, limit}}}) ==
        "batch sequence 1: context + new_tokens = " + std::to_string(limit + 1) +
            " exceeds the limit sequence_length = " + std::to_string(limit) + " tokens");
  CHECK(error_of(c, Batch{{{limit / 2, 0}, {1, 0}, {limit / 2, 0}}}) ==
        "batch sequence 2: the batch's new tokens up to here, " + std::to_string(limit + 1) +
            ", exceeds the limit sequence_length = " + std::to_string(limit) + " tokens");
  CHECK(error_of(c, Batch{std::vector<frontend::SequenceSlot>(30000, {1, 1})})
            .find("graph nodes, over the limit graph_nodes") != std::string::npos);
  const frontend::ModelConfig bert = frontend::builtin_model("bert-base");
  CHECK(error_of(bert, Batch{{{8, 0}}}) == "(no error)");
  CHECK(error_of(bert, Batch{{{8, 0}, {8, 0}}}) ==
        "model 'bert-base' is an encoder (model_type bert): it takes a batch of one whole prompt "
        "(context 0), got the batch 8+0,8+0");
  CHECK(error_of(bert, Batch{{{1, 8}}}).find("is an encoder") != std::string::npos);
}
