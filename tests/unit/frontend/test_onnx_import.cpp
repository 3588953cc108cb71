// ONNX model files as a model source (frontend/onnx/onnx_import.hpp), on graphs PyTorch exports
// from modules written in tests/tools/export_onnx_models.py (no downloads): the ctest fixture
// onnx:export writes them into LIGHTCODE_TEST_ONNX_DIR before these cases run; a case exits 77
// (skipped) when they are absent (torch or onnx missing for /usr/bin/python3).
// What must hold: the exported GPT-2 and Llama-style models have exactly the built-in
// builders' prefill MACs and matrix products for the same config at every sequence length;
// convolutions count their MACs; unsupported ops and malformed files are errors naming the file.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "frontend/load_model.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/onnx/onnx_import.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;

namespace {

std::string onnx_dir() {
  return LIGHTCODE_TEST_ONNX_DIR;
}

// The exported file `name`, or a skip (exit 77) when the exporter has not written the folder.
std::string exported(const std::string& name) {
  if (!std::filesystem::exists(onnx_dir() + "/done")) {
    std::printf(
        "SKIP: %s/done is absent: run the ctest fixture onnx:export "
        "(tests/tools/export_onnx_models.py; "
        "it needs python3-torch and python3-onnx); exiting with 77\n",
        onnx_dir().c_str());
    std::fflush(stdout);
    std::exit(77);
  }
  return onnx_dir() + "/" + name;
}

ir::Graph onnx_at(const std::string& file, int64_t length) {
  frontend::OnnxImportOptions options;
  options.sequence_length = length;
  return frontend::import_onnx_file(file, options);
}

int64_t count_kind(const ir::GraphSummary& s, const char* kind) {
  auto it = s.kinds.find(kind);
  return it == s.kinds.end() ? 0 : it->second;
}

// MACs and the matrix products by kind (dense: projections and LM head; matmul: attention);
// with `same_parameters` the parameter bytes too (GPT-2: the weights and the folded position
// embeddings and causal masks alike; Llama's folded masks and rotary tables differ in form).
void check_same_work(const ir::Graph& imported, const ir::Graph& builtin, bool same_parameters) {
  const ir::GraphSummary a = ir::summarize(imported);
  const ir::GraphSummary b = ir::summarize(builtin);
  CAPTURE(imported.source());
  CAPTURE(builtin.source());
  CHECK(a.macs > 0);
  CHECK(a.macs == b.macs);
  CHECK(count_kind(a, "dense") == count_kind(b, "dense"));
  CHECK(count_kind(a, "matmul") == count_kind(b, "matmul"));
  if (same_parameters) CHECK(a.parameter_bytes.at("float32") == b.parameter_bytes.at("float32"));
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE(
    "the exported GPT-2 at 5 tokens has the built-in gpt2's prefill MACs and matrix products") {
  const std::string file = exported("gpt2.onnx");
  const ir::Graph imported = onnx_at(file, 5);
  CHECK(imported.source() == file);
  frontend::ModelRequest builtin;
  builtin.model = "gpt2";
  builtin.length = 5;  // Logits::last, as `lightcode inspect gpt2 --seq 5`
  check_same_work(imported, frontend::load_model(builtin), true);
  const ir::GraphSummary s = ir::summarize(imported);
  CHECK(s.macs ==
        463731456);  // 12 x (5 x 768 x (2304 + 768 + 2 x 3072) + 2 x 12 x 5 x 5 x 64) + 768 x 50257
  CHECK(count_kind(s, "dense") == 49);
  CHECK(count_kind(s, "matmul") == 24);
  // Through load_model, as the command line and scenarios name it.
  frontend::ModelRequest request;
  request.model = file;
  request.length = 5;
  CHECK(ir::summarize(frontend::load_model(request)).macs == s.macs);
}

TEST_CASE("the exported Llama-style model has the built-in builder's MACs for its config") {
  const std::string file = exported("llama.onnx");
  const frontend::ModelConfig config = frontend::load_model_config(exported("llama.yaml"));
  REQUIRE(config.model_type == frontend::ModelFamily::llama);
  REQUIRE(config.num_key_value_heads < config.num_attention_heads);  // grouped-query attention
  check_same_work(
      onnx_at(file, 5),
      frontend::build_model(config, frontend::Stage::prefill, 5, frontend::Logits::last), false);
}

TEST_CASE(
    "a symbolic sequence axis takes sequence_length: MACs match the built-in models at 5 and 17 "
    "tokens") {
  const std::string gpt2 = exported("gpt2.onnx");
  const frontend::ModelConfig llama = frontend::load_model_config(exported("llama.yaml"));
  const frontend::ModelConfig builtin_gpt2 = frontend::builtin_model("gpt2");
  for (const int64_t length : {int64_t{5}, int64_t{17}, int64_t{1}}) {
    CAPTURE(length);
    check_same_work(onnx_at(gpt2, length),
                    frontend::build_model(builtin_gpt2, frontend::Stage::prefill, length,
                                          frontend::Logits::last),
                    true);
    check_same_work(
        onnx_at(exported("llama.onnx"), length),
        frontend::build_model(llama, frontend::Stage::prefill, length, frontend::Logits::last),
        false);
    const ir::Graph g = onnx_at(gpt2, length);
    CHECK(g.node(0).output().shape.rank() == 2);
    bool found = false;
    for (const ir::Node& n : g.nodes()) {
      if (n.name == "input_ids") {
        CHECK(n.output().shape == ir::Shape{1, length});
        CHECK(n.role == ir::MemoryRole::input);
        found = true;
      }
    }
    CHECK(found);
  }
}

TEST_CASE("a symbolic axis without a sequence length is an error that says to give one") {
  const std::string file = exported("gpt2.onnx");
  const std::string message = test::error_of([&] { frontend::import_onnx_file(file); });
  CHECK(message.find(file) != std::string::npos);
  CHECK(message.find("input_ids") != std::string::npos);
  CHECK(message.find("sequence_length") != std::string::npos);
  CHECK(message.find("--seq") != std::string::npos);
  CHECK(test::error_of([&] { onnx_at(file, 0); }).find("sequence length must be between 1") !=
        std::string::npos);
}

TEST_CASE("convolutions count their MACs: im2col and one product, grouped ones per group") {
  const std::string file = exported("cnn.onnx");
  const ir::Graph g = frontend::import_onnx_file(file);  // fixed shapes: no length needed
  const ir::GraphSummary s = ir::summarize(g);
  const int64_t conv1 = 32 * 32 * 16 * (3 * 3 * 3);       // pixels x Cout x Cin x kernel
  const int64_t conv2 = 16 * 16 * 32 * (16 / 4 * 3 * 3);  // stride 2, 4 groups
  const int64_t fc = 32 * 10;
  CHECK(s.macs == conv1 + conv2 + fc);
  CHECK(count_kind(s, "dense") == 2);   // conv1 and the Gemm
  CHECK(count_kind(s, "matmul") == 1);  // the grouped convolution, one product per group
  CHECK(count_kind(s, "take") == 2);    // the im2col gathers
  // A file without a symbolic axis or input_ids cannot be re-sized to a length.
  const std::string message = test::error_of([&] { onnx_at(file, 4); });
  CHECK(message.find(file) != std::string::npos);
  CHECK(message.find("dynamic_axes") != std::string::npos);
}

TEST_CASE("products take TVM's operand layout whatever the ONNX operands' ranks") {
  const ir::Graph g = frontend::import_onnx_file(exported("ops.onnx"));
  const ir::GraphSummary s = ir::summarize(g, 10);
  std::map<std::string, int64_t> macs;
  std::map<std::string, std::string> shapes;
  for (const ir::MatrixProduct& p : s.largest_products) {
    macs[p.name] = p.macs;
    for (const ir::Shape& in : p.inputs) shapes[p.name] += in.str();
  }
  CHECK(macs.size() == 4);
  CHECK(macs["vec_mat"] == 4 * 8);
  CHECK(macs["mat_vec"] == 4 * 8);
  CHECK(macs["gemm"] == 4 * 6 * 8);
  CHECK(macs["bmm"] == 2 * 3 * 4 * 5 * 8);
  // B transposed: dense [M, K] x [N, K], batch_matmul [B, M, K] x [B, N, K].
  CHECK(shapes["gemm"] == "[4, 8][6, 8]");
  CHECK(shapes["bmm"] == "[6, 4, 8][6, 5, 8]");
  CHECK(shapes["mat_vec"] == "[4, 8][1, 8]");
  CHECK(count_kind(s, "tanh") == 1);  // Gelu's tanh form
  CHECK(count_kind(s, "split") == 1);
}

TEST_CASE("an unsupported op is an error naming the op, the node, its index and the file") {
  const std::string file = exported("unsupported.onnx");
  const std::string message = test::error_of([&] { onnx_at(file, 5); });
  CHECK(message.find(file) != std::string::npos);
  CHECK(message.find("graph.node[0]") != std::string::npos);
  CHECK(message.find("lonely_lstm") != std::string::npos);
  CHECK(message.find("unsupported ONNX op 'LSTM'") != std::string::npos);
  // The scenario input check (no length) reports it too.
  CHECK(test::error_of([&] { frontend::check_graph_file(file); }) == message);
}

TEST_CASE("a value whose shape inference cannot fix is an error naming the file and the node") {
  const std::string file = exported("runtime_shape.onnx");
  const std::string message = test::error_of([&] { frontend::import_onnx_file(file); });
  CHECK(message.find(file) != std::string::npos);
  CHECK(message.find("reshape_by_input") != std::string::npos);
  CHECK(message.find("after shape inference") != std::string::npos);
}

TEST_CASE("malformed ONNX files are errors naming the file") {
  const test::Scratch scratch;
  const std::string whole = file_bytes(exported("gpt2.onnx"));
  REQUIRE(whole.size() > 1000);
  const std::string cases[] = {
      "not an ONNX model at all\n", whole.substr(0, whole.size() / 2),  // truncated
      "",                          // empty: a ModelProto without a graph
      std::string("\x08\x07", 2),  // a valid protobuf (ir_version 7) without a graph
  };
  int index = 0;
  for (const std::string& bytes : cases) {
    CAPTURE(index);
    const std::string path = scratch.file("bad" + std::to_string(index++) + ".onnx", bytes);
    const std::string message = test::error_of([&] { onnx_at(path, 5); });
    CHECK(message.rfind(path + ": ", 0) == 0);
    CHECK(message.find("not an ONNX model") != std::string::npos);
    CHECK(test::error_of([&] {
            frontend::import_onnx_bytes(bytes, "named.onnx");
          }).rfind("named.onnx: ", 0) == 0);
  }
  // A directory or a missing file: the input reader's errors, naming the path.
  CHECK(test::error_of([&] { frontend::import_onnx_file(scratch.dir); }).find(scratch.dir) !=
        std::string::npos);
  CHECK(test::error_of([&] {
          frontend::import_onnx_file(scratch.path("absent.onnx"));
        }).find("absent.onnx") != std::string::npos);
}

TEST_CASE("names ending in .onnx are graph files") {
  CHECK(frontend::is_onnx_path("model.onnx"));
  CHECK_FALSE(frontend::is_onnx_path(".onnx"));
  CHECK_FALSE(frontend::is_onnx_path("gpt2"));
  CHECK(frontend::is_graph_file("model.onnx"));
  CHECK_FALSE(frontend::is_graph_file("gpt2"));
}
