// The built-in model zoo: configs load strictly, builders emit TVM's graphs. The TVM
// reference graphs live outside the repository (../shared/graphs/tvm); those cases skip with a
// message when it is absent, the structural counts below run everywhere.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include <unistd.h>

#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/tvm/tvm_import.hpp"
#include "sim/core/error.hpp"
#include "sim/core/params.hpp"
#include "sim/ir/isomorphism.hpp"
#include "tests/support/graph_diff.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using frontend::Stage;
using test::ordered_difference;

namespace {

struct Counts {
  int64_t macs = 0;
  int dense = 0;
  int matmul = 0;
  int of(const ir::Graph& g, std::string_view kind) const {
    return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                          [&](const ir::Node& n) { return n.kind_name == kind; }));
  }
};

// The checkpoint's parameters: elements of the graph's weights (parameter memory named
// "<scope>.weight"); the folded constants (rotary tables, masks, scales) are not in it.
int64_t weight_elements(const ir::Graph& g) {
  int64_t n = 0;
  for (const ir::Node& m : g.nodes()) {
    const std::string_view name = m.name;
    if (m.kind == ir::OpKind::memory && m.role == ir::MemoryRole::parameter && name.size() >= 7 &&
        name.substr(name.size() - 7) == ".weight") {
      n += m.output().shape.elements();
    }
  }
  return n;
}

// The original's MACs: elements of output 0 times the last dimension of input 0.
Counts count(const ir::Graph& g) {
  Counts c;
  for (const ir::Node& n : g.nodes()) {
    if (n.kind == ir::OpKind::dense || n.kind == ir::OpKind::matmul) {
      c.macs += n.output().shape.elements() * n.input_type(0).shape.back();
      (n.kind == ir::OpKind::dense ? c.dense : c.matmul) += 1;
    }
  }
  return c;
}

frontend::ModelConfig float32(frontend::ModelConfig c) {
  // The TVM references were traced after from_pretrained's default float32 load.
  c.torch_dtype = ir::DType::float32;
  return c;
}

// A model YAML beside the test's working directory, removed afterwards.
struct TempYaml {
  std::filesystem::path path;
  // The process id keeps concurrent test runs (two build trees) apart.
  explicit TempYaml(const std::string& name, const std::string& text)
      : path(std::filesystem::temp_directory_path() /
             ("lightcode_test_models_" + name + "_" + std::to_string(::getpid()) + ".yaml")) {
    std::ofstream(path) << text;
  }
  ~TempYaml() { std::filesystem::remove(path); }
};

const char* const kGpt2Yaml =
    "source: openai-community/gpt2\n"
    "model_type: gpt2\n"
    "num_hidden_layers: 12\n"
    "hidden_size: 768\n"
    "num_attention_heads: 12\n"
    "num_key_value_heads: 12\n"
    "intermediate_size: 3072\n"
    "vocab_size: 50257\n"
    "norm_type: layernorm\n"
    "hidden_act: gelu_new\n"
    "tie_word_embeddings: true\n"
    "torch_dtype: float32\n";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the model zoo lists its configs sorted and each decoder builds both stages") {
  const auto names = frontend::builtin_model_names();
  for (const char* expected :
       {"codellama-13b", "codellama-34b", "codellama-7b", "gpt2", "gpt2-medium", "gpt2-xl", "llama-2-13b",
        "llama-2-7b", "llama-3-8b", "mistral-7b", "opt-1.3b"}) {
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  }
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (const std::string& name : names) {
    CAPTURE(name);
    const frontend::ModelConfig c = frontend::builtin_model(name);
    CHECK(c.name == name);
    CHECK(!c.source.empty());
    if (c.encoder()) continue;  // the encoder test below
    for (const Stage stage : {Stage::prefill, Stage::decode}) {
      const ir::Graph g = frontend::build_model(c, stage, 7, frontend::Logits::all);
      CHECK_NOTHROW(g.validate());
      CHECK(g.source() ==
            "builtin:" + name + "@" + std::string(frontend::stage_name(stage)) + "/7");
      REQUIRE(g.heads().size() == static_cast<size_t>(1 + 2 * c.num_hidden_layers));
      const int64_t t = stage == Stage::prefill ? 7 : 1;
      const int64_t keys = stage == Stage::prefill ? 7 : 8;
      CHECK(g.node(g.heads()[0].node).output().shape == ir::Shape{1, t, c.vocab_size});
      CHECK(g.node(g.heads()[1].node).output().shape ==
            ir::Shape{1, c.num_key_value_heads, keys, c.head_dim()});
      CHECK(g.node(g.heads()[0].node).output().dtype == c.torch_dtype);
      int wrong_roles = 0;
      for (const ir::Node& n : g.nodes()) {
        if (n.kind != ir::OpKind::memory) continue;
        const bool fed =
            n.name == "input_ids" || n.name == "attention_mask" || n.name.rfind("past_", 0) == 0;
        wrong_roles += n.role != (fed ? ir::MemoryRole::input : ir::MemoryRole::parameter);
      }
      CHECK(wrong_roles == 0);
    }
  }
}

TEST_CASE("encoders: bert-base and deit-base have their published work and refuse to decode") {
  // Per layer: q/k/v/o 4 T H^2, the MLP 2 T H I, scores and context 2 T^2 H; DeiT adds its
  // patch embedding, (T - 1) patches x (3 x 16 x 16 = 768) x H.
  auto encoder_macs = [](int64_t t, int64_t h, int64_t i, int64_t layers) {
    return layers * (4 * t * h * h + 2 * t * h * i + 2 * t * t * h);
  };
  const frontend::ModelConfig bert = frontend::builtin_model("bert-base");
  const frontend::ModelConfig deit = frontend::builtin_model("deit-base");
  CHECK(bert.encoder());
  CHECK(deit.encoder());
  for (const int64_t t : {int64_t{128}, int64_t{384}}) {
    const ir::Graph g = frontend::build_model(bert, Stage::prefill, t, frontend::Logits::last);
    CHECK(count(g).macs == encoder_macs(t, 768, 3072, 12));
    REQUIRE(g.heads().size() == 1);
    CHECK(g.node(g.heads()[0].node).output().shape == ir::Shape{1, t, 768});
  }
  const ir::Graph d = frontend::build_model(deit, Stage::prefill, 197, frontend::Logits::last);
  CHECK(count(d).macs == encoder_macs(197, 768, 3072, 12) + 196 * 768 * 768);
  CHECK(d.node(d.heads()[0].node).output().shape == ir::Shape{1, 197, 768});
  CHECK_THROWS_WITH_AS(frontend::build_model(bert, Stage::decode, 8, frontend::Logits::last),
                       doctest::Contains("is an encoder (model_type bert): it has no KV cache"), Error);
  CHECK_THROWS_WITH_AS(frontend::build_model(deit, Stage::prefill, 1, frontend::Logits::last),
                       doctest::Contains("the class token plus at least one patch"), Error);
}

TEST_CASE("builtin gpt2 prefill at 5 tokens has the TVM graph's size and work") {
  const ir::Graph g = frontend::build_model(frontend::builtin_model("gpt2"), Stage::prefill, 5, frontend::Logits::all);
  const Counts c = count(g);
  CHECK(g.size() == 1108);
  CHECK(c.dense == 49);
  CHECK(c.matmul == 24);
  CHECK(c.macs == 618'120'960);
}

TEST_CASE("builtin llama-2-7b prefill at 6 tokens has the TVM graph's size and work") {
  const ir::Graph g =
      frontend::build_model(float32(frontend::builtin_model("llama-2-7b")), Stage::prefill, 6, frontend::Logits::all);
  CHECK(g.size() == 2823);
  CHECK(count(g).macs == 39'651'901'440);
}

TEST_CASE("logits: last projects only the last prompt token: lm_head does 1/T of its work") {
  for (const char* name : {"gpt2", "llama-2-7b", "opt-1.3b"}) {
    CAPTURE(name);
    const frontend::ModelConfig c = frontend::builtin_model(name);
    const ir::Graph all = frontend::build_model(c, Stage::prefill, 64, frontend::Logits::all);
    const ir::Graph last = frontend::build_model(c, Stage::prefill, 64, frontend::Logits::last);
    CHECK(last.size() == all.size() + 1);  // the slice of the last token
    const int64_t lm_head = c.hidden_size * c.vocab_size;
    CHECK(count(all).macs - count(last).macs == 63 * lm_head);
    const ir::Input logits = last.heads().front();
    CHECK(last.node(logits.node).output().shape == ir::Shape{1, 1, c.vocab_size});
    // Decode is one token either way.
    CHECK(frontend::build_model(c, Stage::decode, 64, frontend::Logits::last).size() ==
          frontend::build_model(c, Stage::decode, 64, frontend::Logits::all).size());
  }
  CHECK(frontend::parse_logits("all") == frontend::Logits::all);
  CHECK_THROWS_WITH_AS(frontend::parse_logits("first"), doctest::Contains("expected 'last' or 'all'"), Error);
  CHECK(frontend::logits_for("", true) == frontend::Logits::all);
  CHECK(frontend::logits_for("", false) == frontend::Logits::last);
}

TEST_CASE("builtin gpt2 prefill at 5 is TVM's GPT-2 prefill graph, node for node") {
  const std::string path = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph tvm = frontend::import_tvm_file(path);
  const ir::Graph built = frontend::build_model(frontend::builtin_model("gpt2"), Stage::prefill, 5, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) == "");
  CHECK(ordered_difference(built, tvm) == "");
}

TEST_CASE("TVM's GPT-2 prefill graph re-sized to 1400 is builtin gpt2 at 1400") {
  const std::string path = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!test::have_external(path)) return;
  ir::Graph tvm = frontend::import_tvm_file(path);
  tvm.resize_sequence(5, 1400);
  const ir::Graph built =
      frontend::build_model(frontend::builtin_model("gpt2"), Stage::prefill, 1400, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) == "");
  CHECK(ordered_difference(built, tvm) == "");
}

TEST_CASE("builtin gpt2 decode with 6 cached tokens is TVM's GPT-2 decoder graph") {
  const std::string path = test::tvm_graph("gpt2_decoder_seq6_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph tvm = frontend::import_tvm_file(path);
  const ir::Graph built = frontend::build_model(frontend::builtin_model("gpt2"), Stage::decode, 6, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) == "");
  CHECK(ordered_difference(built, tvm) == "");
}

TEST_CASE("builtin llama-2-7b prefill at 6 (float32) is TVM's Llama-2-7B graph") {
  const std::string path = test::tvm_graph("llama2_7b_prefill_seq6_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph tvm = frontend::import_tvm_file(path);
  const ir::Graph built =
      frontend::build_model(float32(frontend::builtin_model("llama-2-7b")), Stage::prefill, 6, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) == "");
  CHECK(ordered_difference(built, tvm) == "");
}

TEST_CASE("TVM's decoder and Llama graphs re-sized are the builtins at that length") {
  const std::string decoder = test::tvm_graph("gpt2_decoder_seq6_graph.json");
  const std::string llama = test::tvm_graph("llama2_7b_prefill_seq6_graph.json");
  if (!test::have_external(decoder) || !test::have_external(llama)) return;
  ir::Graph tvm = frontend::import_tvm_file(decoder);
  tvm.resize_sequence(6, 1000);
  CHECK(ordered_difference(
            frontend::build_model(frontend::builtin_model("gpt2"), Stage::decode, 1000, frontend::Logits::all), tvm) ==
        "");
  tvm = frontend::import_tvm_file(llama);
  tvm.resize_sequence(6, 333);
  const ir::Graph built =
      frontend::build_model(float32(frontend::builtin_model("llama-2-7b")), Stage::prefill, 333, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) == "");
  CHECK(ordered_difference(built, tvm) == "");
}

TEST_CASE("the isomorphism checks above can fail: prefill at 5 is not the decoder graph") {
  const std::string path = test::tvm_graph("gpt2_decoder_seq6_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph tvm = frontend::import_tvm_file(path);
  const ir::Graph built = frontend::build_model(frontend::builtin_model("gpt2"), Stage::decode, 5, frontend::Logits::all);
  CHECK(ir::isomorphism_mismatch(built, tvm) != "");
  CHECK(ordered_difference(built, tvm) != "");
}

TEST_CASE("llama-3-8b shares 8 KV heads among 32 query heads (repeat_kv)") {
  const frontend::ModelConfig c = frontend::builtin_model("llama-3-8b");
  const ir::Graph g = frontend::build_model(c, Stage::decode, 100, frontend::Logits::all);
  const Counts k = count(g);
  CHECK(k.dense == 7 * 32 + 1);
  CHECK(k.matmul == 2 * 32);
  // K and V each: expand_dims (nop) -> broadcast_to ("to") -> reshape (nop), per layer; one
  // more broadcast_to builds the mask.
  CHECK(k.of(g, "to") == 2 * 32 + 1);
  int repeats = 0;
  int kv_projections = 0;
  for (const ir::Node& n : g.nodes()) {
    if (n.kind == ir::OpKind::dense && n.output().shape == ir::Shape{1, 1024}) ++kv_projections;
    if (n.kind_name == "to") CHECK(n.kind == ir::OpKind::other);
    if (n.kind_name == "to" && n.output().shape.rank() == 5) {
      ++repeats;
      CHECK(n.input_type(0).shape == ir::Shape{1, 8, 1, 101, 128});
      CHECK(n.output().shape == ir::Shape{1, 8, 4, 101, 128});
      CHECK(n.output().dtype == ir::DType::bfloat16);
    }
  }
  CHECK(repeats == 2 * 32);
  CHECK(kv_projections == 2 * 32);
  CHECK(g.node(g.heads()[1].node).output().shape == ir::Shape{1, 8, 101, 128});
  CHECK(g.node(g.heads()[0].node).output() ==
        ir::TensorType{ir::Shape{1, 1, 128256}, ir::DType::bfloat16});
  // Per layer: q and k scores against 101 keys, the 32 query heads each.
  CHECK(k.macs ==
        int64_t{32} * (4096 * (4096 + 2 * 1024 + 4096) + 3 * 4096 * 14336 + 2 * 32 * 101 * 128) +
            int64_t{4096} * 128256);
}

TEST_CASE("llama-family models have their published parameter counts") {
  // Hugging Face's num_parameters() of each checkpoint: Llama 2 and 3 as anchors, then the
  // Mistral and Code Llama configs the ML.ENERGY calibration rows run.
  const std::pair<const char*, int64_t> published[] = {
      {"llama-2-7b", 6'738'415'616},     {"llama-2-13b", 13'015'864'320}, {"llama-2-70b", 68'976'648'192},
      {"llama-3-8b", 8'030'261'248},     {"mistral-7b", 7'248'023'552},   {"codellama-7b", 6'738'546'688},
      {"codellama-13b", 13'016'028'160}, {"codellama-34b", 33'743'970'304}};
  for (const auto& [model_name, parameters] : published) {
    const char* name = model_name;  // clang 14 does not capture structured bindings (CAPTURE)
    CAPTURE(name);
    const frontend::ModelConfig c = frontend::builtin_model(name);
    CHECK(c.model_type == frontend::ModelFamily::llama);
    CHECK(weight_elements(frontend::build_model(c, Stage::prefill, 1, frontend::Logits::last)) == parameters);
  }
  // Mistral 7B v0.3 and Code Llama 34B share 8 KV heads of 128 among 32 and 64 query heads;
  // the 7B and 13B Code Llamas have Llama 2's shapes and 16 more vocabulary rows.
  const frontend::ModelConfig mistral = frontend::builtin_model("mistral-7b");
  CHECK(mistral.head_dim() == 128);
  CHECK(mistral.num_key_value_heads == 8);
  CHECK(mistral.torch_dtype == ir::DType::bfloat16);
  const frontend::ModelConfig code34 = frontend::builtin_model("codellama-34b");
  CHECK(code34.head_dim() == 128);
  CHECK(code34.num_attention_heads / code34.num_key_value_heads == 8);
  CHECK(frontend::builtin_model("codellama-7b").vocab_size == frontend::builtin_model("llama-2-7b").vocab_size + 16);
  CHECK(frontend::builtin_model("codellama-13b").vocab_size == frontend::builtin_model("llama-2-13b").vocab_size + 16);
}

TEST_CASE("llama in float16 upcasts RMSNorm to float32 and casts back") {
  const ir::Graph g =
      frontend::build_model(frontend::builtin_model("llama-2-7b"), Stage::prefill, 6, frontend::Logits::all);
  CHECK(g.size() == 2823 + 2 * (2 * 32 + 1));  // two casts per RMSNorm
  for (const ir::Node& n : g.nodes()) {
    if (n.kind == ir::OpKind::rsqrt) CHECK(n.output().dtype == ir::DType::float32);
    if (n.kind == ir::OpKind::dense) CHECK(n.output().dtype == ir::DType::float16);
  }
}

TEST_CASE("opt-1.3b: learned positions, q/k/v with biases, ReLU feed-forward, additive mask") {
  const frontend::ModelConfig c = frontend::builtin_model("opt-1.3b");
  const ir::Graph g = frontend::build_model(c, Stage::prefill, 9, frontend::Logits::all);
  const Counts k = count(g);
  CHECK(k.dense == 6 * 24 + 1);
  CHECK(k.matmul == 2 * 24);
  CHECK(k.of(g, "relu") == 24);
  CHECK(k.of(g, "cumsum") == 1);
  CHECK(k.of(g, "take") == 2);
  CHECK(k.of(g, "nd") == 1);
  CHECK(k.of(g, "where") == 3);  // two embedding index wraps and the mask's padding fill
  CHECK(k.macs ==
        int64_t{24} * (int64_t{9} * 2048 * 2048 * 4 + 2 * 9 * 2048 * 8192 + 2 * 32 * 9 * 9 * 64) +
            int64_t{9} * 2048 * 50272);
  bool positions = false;
  for (const ir::Node& n : g.nodes()) {
    if (n.kind == ir::OpKind::take && n.input_type(0).shape == ir::Shape{2048 + 2, 2048}) {
      positions = n.input_type(1).shape == ir::Shape{1, 9};
    }
    // fp16 softmax runs in float32 between casts, as OPTAttention does.
    if (n.kind == ir::OpKind::softmax) CHECK(n.output().dtype == ir::DType::float32);
  }
  CHECK(positions);
  const ir::Graph d = frontend::build_model(c, Stage::decode, 30, frontend::Logits::all);
  CHECK(d.node(d.heads()[2].node).output().shape == ir::Shape{1, 32, 31, 64});
  CHECK(d.node(d.heads()[1].node).kind == ir::OpKind::concatenate);
}

TEST_CASE("unknown built-in model names the available ones") {
  const std::string msg = error_of([] { frontend::builtin_model("gpt3"); });
  CHECK(msg.find("unknown built-in model 'gpt3'") != std::string::npos);
  CHECK(msg.find("codellama-13b, codellama-34b, codellama-7b, deit-base, gpt2, gpt2-medium, gpt2-xl, llama-2-13b, "
                 "llama-2-70b, llama-2-7b, llama-3-8b, mistral-7b, opt-1.3b") != std::string::npos);
}

TEST_CASE("a model YAML with a missing key names the file, line and key") {
  const TempYaml f("missing", replace(kGpt2Yaml, "vocab_size: 50257\n", ""));
  const std::string msg = error_of([&] { frontend::load_model_config(f.path.string()); });
  CHECK(msg.find(f.path.string() + ":1:") == 0);
  CHECK(msg.find("missing key 'vocab_size'") != std::string::npos);
}

TEST_CASE("a model YAML with an unknown key names the file, line and key") {
  const TempYaml f("unknown",
                   replace(kGpt2Yaml, "vocab_size: 50257\n", "vocab_size: 50257\nvocab_sise: 3\n"));
  const std::string msg = error_of([&] { frontend::load_model_config(f.path.string()); });
  CHECK(msg.find(f.path.string() + ":9:") == 0);
  CHECK(msg.find("vocab_sise") != std::string::npos);
  CHECK(msg.find("unknown key") != std::string::npos);
}

TEST_CASE("a model YAML key its family does not read names the file, line, key and family") {
  // Only OPT's graph has a position table: for gpt2 the value would be silently ignored.
  const TempYaml f("unread", replace(kGpt2Yaml, "norm_type: layernorm\n",
                                     "max_position_embeddings: 1024\nnorm_type: layernorm\n"));
  const std::string msg = error_of([&] { frontend::load_model_config(f.path.string()); });
  CHECK(msg.find(f.path.string() + ":9:") == 0);
  CHECK(msg.find("key 'max_position_embeddings' is set but not read by the gpt2 model family") !=
        std::string::npos);
  // ... and opt, which reads it, needs it.
  const TempYaml opt("opt", replace(kGpt2Yaml, "model_type: gpt2", "model_type: opt"));
  CHECK(error_of([&] { frontend::load_model_config(opt.path.string()); })
            .find("missing key 'max_position_embeddings'") != std::string::npos);
  // Encoders end at the last hidden state (no lm_head to tie); a vit reads pixels (patch size
  // and channels, no vocabulary).
  const TempYaml bert("bert", replace(kGpt2Yaml, "model_type: gpt2", "model_type: bert"));
  CHECK(error_of([&] { frontend::load_model_config(bert.path.string()); })
            .find("key 'tie_word_embeddings' is set but not read by the bert model family") != std::string::npos);
  const TempYaml vit("vit", replace(replace(kGpt2Yaml, "model_type: gpt2", "model_type: vit"), "tie_word_embeddings: true\n", ""));
  CHECK(error_of([&] { frontend::load_model_config(vit.path.string()); }).find("missing key 'patch_size'") !=
        std::string::npos);
  const TempYaml no_tie("no_tie", replace(kGpt2Yaml, "tie_word_embeddings: true\n", ""));
  CHECK(error_of([&] { frontend::load_model_config(no_tie.path.string()); })
            .find("missing key 'tie_word_embeddings'") != std::string::npos);
}

TEST_CASE("every shipped model config loads: each key it sets is read by its family") {
  for (const std::string& name : frontend::builtin_model_names()) {
    CAPTURE(name);
    CHECK_NOTHROW(frontend::builtin_model(name));
  }
}

TEST_CASE("the model config table: every default parses, every key has a doc") {
  CHECK(check_defaults(frontend::model_config_table()).empty());
}

TEST_CASE("model YAML values are range- and consistency-checked where they are written") {
  auto error_for = [](const std::string& name, const std::string& from, const std::string& to) {
    const TempYaml f(name, replace(kGpt2Yaml, from, to));
    return error_of([&] { frontend::load_model_config(f.path.string()); });
  };
  CHECK(error_for("zero", "num_hidden_layers: 12", "num_hidden_layers: 0").find(":3:") !=
        std::string::npos);
  CHECK(error_for("heads", "num_attention_heads: 12\nnum_key_value_heads: 12",
                  "num_attention_heads: 10\nnum_key_value_heads: 10")
            .find("not divisible by 10 attention heads") != std::string::npos);
  CHECK(error_for("gqa", "num_key_value_heads: 12", "num_key_value_heads: 4")
            .find("no grouped-query attention") != std::string::npos);
  CHECK(error_for("act", "hidden_act: gelu_new", "hidden_act: gelu_fast")
            .find("expected one of gelu_new, gelu, silu, relu, got 'gelu_fast'") != std::string::npos);
  CHECK(error_for("dtype", "torch_dtype: float32", "torch_dtype: int8").find("torch_dtype") !=
        std::string::npos);
  const TempYaml ok("ok", kGpt2Yaml);
  const frontend::ModelConfig c = frontend::load_model_config(ok.path.string());
  CHECK(c.name == ok.path.stem().string());
  CHECK(c.head_dim() == 64);
  CHECK(c.tie_word_embeddings);
}

TEST_CASE("a negative sequence length is an error") {
  const frontend::ModelConfig c = frontend::builtin_model("gpt2");
  CHECK(error_of([&] {
          frontend::build_model(c, Stage::prefill, -3, frontend::Logits::all);
        }).find("sequence length must be positive, got -3") != std::string::npos);
  CHECK(error_of([&] {
          frontend::build_model(c, Stage::decode, -1, frontend::Logits::all);
        }).find("KV-cache length must be positive, got -1") != std::string::npos);
}

TEST_CASE("a zero sequence length is an error") {
  const frontend::ModelConfig c = frontend::builtin_model("llama-2-7b");
  CHECK(error_of([&] {
          frontend::build_model(c, Stage::prefill, 0, frontend::Logits::all);
        }).find("model 'llama-2-7b': sequence length must be positive, got 0") !=
        std::string::npos);
  CHECK(error_of([&] {
          frontend::build_model(c, Stage::decode, 0, frontend::Logits::all);
        }).find("KV-cache length must be positive, got 0") != std::string::npos);
}
