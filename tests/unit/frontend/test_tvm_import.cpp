// TVM graph-executor JSON import: the real graphs in ../shared/graphs/tvm, and every way a
// file can be malformed, each answered with an error that names the file and the place.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <string>

#include "frontend/tvm/tvm_import.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;
using frontend::import_tvm_json;

namespace {

// A three-node graph: data [1,4] -> split into [1,1] and [1,3] -> relu on output 1.
std::string tiny_graph(const std::string& relu_inputs = "[[1, 1, 0]]",
                       const std::string& shapes = "[[1, 4], [1, 1], [1, 3], [1, 3]]",
                       const std::string& row_ptr = "[0, 1, 3, 4]") {
  return R"({
  "nodes": [
    {"op": "null", "name": "data", "inputs": []},
    {"op": "tvm_op", "name": "split0", "attrs": {"num_outputs": "2", "num_inputs": "1",
      "func_name": "tvmgen_default_fused_split"}, "inputs": [[0, 0, 0]]},
    {"op": "tvm_op", "name": "relu0", "attrs": {"num_outputs": "1", "num_inputs": "1",
      "func_name": "tvmgen_default_fused_nn_relu_3"}, "inputs": )" +
         relu_inputs + R"(}
  ],
  "arg_nodes": [0],
  "heads": [[2, 0, 0]],
  "attrs": {"dltype": ["list_str", ["float32", "float32", "float32", "float32"]],
            "shape": ["list_shape", )" +
         shapes + R"(]},
  "node_row_ptr": )" + row_ptr + "}";
}

std::string error_of(const std::string& text, frontend::TvmImportOptions opts = {}) {
  try {
    import_tvm_json(text, "bad.json", opts);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every external TVM graph imports and validates") {
  const std::string dir = test::tvm_graph_dir();
  if (!test::have_external(dir)) return;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    const ir::Graph g = frontend::import_tvm_file(entry.path().string());
    CHECK(g.size() > 0);
    CHECK_NOTHROW(g.validate());
    ++files;
  }
  CHECK(files >= 5);
}

TEST_CASE("GPT-2 prefill: 1108 nodes, 49 dense, 24 batch matmuls, 618,120,960 MACs") {
  const std::string path = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph g = frontend::import_tvm_file(path);
  const ir::GraphSummary s = ir::summarize(g);
  CHECK(s.nodes == 1108);
  CHECK(s.kinds.at("dense") == 49);
  CHECK(s.kinds.at("matmul") == 24);
  CHECK(s.kinds.at("memory") == 298);
  CHECK(s.macs == 618120960);
  CHECK(frontend::detect_traced_length(g) == 5);
  // Node 42 is the first layer's QKV split: three entries, each read by its own consumer.
  CHECK(g.node(42).kind_name == "split");
  CHECK(g.node(42).outputs.size() == 3);
  CHECK(g.node(46).inputs[0].output == 1);
  CHECK(g.node(14).kind_name == "nop");
  CHECK(g.node(0).role == ir::MemoryRole::input);
  CHECK(g.node(13).role == ir::MemoryRole::parameter);
}

TEST_CASE("Llama-2-7B prefill: 2823 nodes and 39,651,901,440 MACs, kinds by the original's rule") {
  const std::string path = test::tvm_graph("llama2_7b_prefill_seq6_graph.json");
  if (!test::have_external(path)) return;
  const ir::GraphSummary s = ir::summarize(frontend::import_tvm_file(path));
  CHECK(s.nodes == 2823);
  CHECK(s.macs == 39651901440);
  CHECK(s.kinds.at("slice") == 160);  // strided_slice
  CHECK(s.kinds.at("to") == 1);       // broadcast_to, as the original names it
}

TEST_CASE("mock sequence length: detected from input_ids (prefill) and past_* (decoder)") {
  const std::string prefill = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  const std::string decoder = test::tvm_graph("gpt2_decoder_seq6_graph.json");
  if (!test::have_external(prefill) || !test::have_external(decoder)) return;
  frontend::TvmImportOptions opts;
  opts.sequence_length = 1400;
  const ir::Graph g = frontend::import_tvm_file(prefill, opts);
  CHECK(g.node(38).output().shape == ir::Shape{1400, 2304});     // QKV dense
  CHECK(g.node(1).output().shape == ir::Shape{1, 1, 1400, 1400});  // causal mask
  CHECK(ir::summarize(g).macs > 1000 * ir::summarize(frontend::import_tvm_file(prefill)).macs / 5);

  const ir::Graph d0 = frontend::import_tvm_file(decoder);
  CHECK(frontend::detect_traced_length(d0) == 6);
  opts.sequence_length = 99;
  const ir::Graph d = frontend::import_tvm_file(decoder, opts);
  CHECK(d.node(1).output().shape == ir::Shape{1, 12, 99, 64});  // past_k_0
  CHECK(d.node(25).output().shape == ir::Shape{1, 1, 1, 100});  // mask over past + 1
  CHECK(d.node(0).output().shape == ir::Shape{1, 1});           // one new token
}

TEST_CASE("each input takes the entry it reads, entry0 reproduces the original's shortcut") {
  const ir::Graph own = import_tvm_json(tiny_graph(), "tiny.json");
  CHECK(own.node(2).input_type(0).shape == ir::Shape{1, 3});
  CHECK(own.node(2).kind_name == "relu");
  frontend::TvmImportOptions opts;
  opts.input_rule = ir::InputTypeRule::entry0;
  const ir::Graph quirk = import_tvm_json(tiny_graph(), "tiny.json", opts);
  CHECK(quirk.node(2).input_type(0).shape == ir::Shape{1, 1});
}

TEST_CASE("malformed JSON names file, line and column") {
  const std::string msg = error_of("{\n  \"nodes\": [\n    {\"op\": \"null\",, }\n  ]\n}");
  CHECK(msg.find("bad.json:3:") == 0);
  CHECK(msg.find("malformed JSON") != std::string::npos);
}

TEST_CASE("a node input pointing forward is rejected with its JSON path") {
  const std::string msg = error_of(tiny_graph("[[2, 0, 0]]"));
  CHECK(msg.find("bad.json: nodes[2].inputs[0]") == 0);
  CHECK(msg.find("points forward") != std::string::npos);
}

TEST_CASE("a node input out of range is rejected with its JSON path") {
  const std::string msg = error_of(tiny_graph("[[7, 0, 0]]"));
  CHECK(msg.find("bad.json: nodes[2].inputs[0]") == 0);
  CHECK(msg.find("out of range") != std::string::npos);
}

TEST_CASE("an input reading a missing output entry is rejected") {
  const std::string msg = error_of(tiny_graph("[[1, 2, 0]]"));
  CHECK(msg.find("nodes[2].inputs[0]") != std::string::npos);
  CHECK(msg.find("output 2 of node 1 does not exist") != std::string::npos);
}

TEST_CASE("a shape list shorter than node_row_ptr says is rejected") {
  const std::string msg = error_of(tiny_graph("[[1, 1, 0]]", "[[1, 4], [1, 1], [1, 3]]"));
  CHECK(msg.find("bad.json: attrs.shape") == 0);
  CHECK(msg.find("lists 3 entry shapes but node_row_ptr says the graph has 4") != std::string::npos);
}

TEST_CASE("node_row_ptr of the wrong length is rejected") {
  const std::string msg = error_of(tiny_graph("[[1, 1, 0]]", "[[1, 4], [1, 1], [1, 3], [1, 3]]", "[0, 1, 3]"));
  CHECK(msg.find("node_row_ptr") != std::string::npos);
}

TEST_CASE("a negative sequence length is rejected") {
  frontend::TvmImportOptions opts;
  opts.sequence_length = -3;
  opts.traced_length = 4;
  const std::string msg = error_of(tiny_graph(), opts);
  CHECK(msg.find("sequence length must be between 1 and 16777216 (sequence_length), got -3") != std::string::npos);
}

TEST_CASE("a missing file is a clear error") {
  try {
    frontend::import_tvm_file("/nonexistent/graph.json");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("/nonexistent/graph.json: cannot open") == 0);
  }
}

TEST_CASE("a negative num_outputs (without node_row_ptr) is an error, not a read past the buffer") {
  std::string text = tiny_graph();
  text = text.substr(0, text.find(",\n  \"node_row_ptr\"")) + "}";  // no node_row_ptr: counts from attrs
  const size_t at = text.find("\"num_outputs\": \"2\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 18, "\"num_outputs\": \"-5\"");
  CHECK(error_of(text) == "bad.json: nodes[1].attrs.num_outputs: num_outputs -5 is not between 1 and 4096 (node_edges)");
}

TEST_CASE("a node name above the name limit is refused (a 1 MB name once took 1.5 GB)") {
  std::string text = tiny_graph();
  const size_t at = text.find("\"name\": \"relu0\"");
  text.replace(at, 15, "\"name\": \"" + std::string(1 << 20, 'r') + "\"");
  CHECK(error_of(text) == "bad.json: nodes[2].name: a string of 1048576 bytes is above the limit of 1024 (name_bytes)");
}

TEST_CASE("JSON nested beyond the depth limit is an error") {
  std::string text = "{\"nodes\": " + std::string(100, '[') + std::string(100, ']') + "}";
  CHECK(error_of(text).find("JSON nested more than 64 levels deep (config_depth)") != std::string::npos);
}

TEST_CASE("a sequence length above the limit, and /dev/zero as a graph, are errors") {
  frontend::TvmImportOptions opts;
  opts.sequence_length = (int64_t{1} << 24) + 1;
  opts.traced_length = 4;
  CHECK(error_of(tiny_graph(), opts).find("sequence length must be between 1 and 16777216") != std::string::npos);
  try {
    frontend::import_tvm_file("/dev/zero");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "/dev/zero: cannot open TVM graph file: it is a character device, not a regular file");
  }
}

TEST_CASE("a tensor whose bytes int64 cannot hold is an error naming its node") {
  const std::string msg = error_of(tiny_graph("[[1, 1, 0]]", "[[1, 4], [1, 1], [1, 3], [4294967296, 4294967296]]"));
  CHECK(msg.find("node 2 'relu0' (relu): the element count of tensor [4294967296, 4294967296] exceeds the "
                 "representable") != std::string::npos);
}

TEST_CASE("a TVM graph file is parsed once while unchanged, again once it changes") {
  const test::Scratch scratch;
  const std::string path = scratch.file("tiny.json", tiny_graph());
  // Older than reuse_input_file's margin, as a graph that was not just written is.
  const struct timespec hour_ago[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), hour_ago, 0) == 0);
  frontend::TvmImportOptions entry0;
  entry0.input_rule = ir::InputTypeRule::entry0;
  const ir::Graph fresh = import_tvm_json(tiny_graph(), path), fresh_shortcut = import_tvm_json(tiny_graph(), path, entry0);
  const uint64_t before = frontend::tvm_files_parsed();
  const ir::Graph traced = frontend::import_tvm_file(path);
  const ir::Graph shortcut = frontend::import_tvm_file(path, entry0);
  CHECK(frontend::tvm_files_parsed() - before == 1);
  // The options apply to the one parse as they would to a fresh one.
  CHECK(ir::summarize(traced).macs == ir::summarize(fresh).macs);
  CHECK(traced.node(2).input_types[0].shape == fresh.node(2).input_types[0].shape);
  CHECK(shortcut.input_rule() == ir::InputTypeRule::entry0);
  CHECK(shortcut.node(2).input_types[0].shape == fresh_shortcut.node(2).input_types[0].shape);
  CHECK(traced.node(2).input_types[0].shape != shortcut.node(2).input_types[0].shape);

  // Rewritten (new modification time): parsed again, and what it now says is what is read.
  scratch.file("tiny.json", tiny_graph("[[1, 0, 0]]"));
  const ir::Graph rewritten = frontend::import_tvm_file(path);
  CHECK(frontend::tvm_files_parsed() - before == 2);
  CHECK(rewritten.node(2).inputs[0].output == 0);
  // Just written, so not trusted to be unchanged: every import reads it.
  frontend::import_tvm_file(path);
  CHECK(frontend::tvm_files_parsed() - before == 3);
}
