// Fuzz target: ONNX model bytes through frontend::import_onnx_bytes (protobuf parse, checks,
// symbolic axes, shape inference, constant folding, lowering), as exported and with its
// sequence axis set to 7 tokens; an accepted graph goes through fuzz::exercise_graph
// (tests/fuzz/fuzz_graph.hpp). Seeds: small PyTorch exports (tests/tools/export_onnx_models.py's
// modules at toy sizes) and the importer tests' hand-built files.
#include <cstdint>
#include <string>

#include "frontend/onnx/onnx_import.hpp"
#include "tests/fuzz/fuzz_graph.hpp"

using namespace lightcode;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::load_graph_systems();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run(data, size, [](std::string_view bytes) {
    fuzz::exercise_graph(frontend::import_onnx_bytes(bytes, "<fuzz>/model.onnx"));
  });
  fuzz::run(data, size, [](std::string_view bytes) {
    frontend::OnnxImportOptions options;
    options.sequence_length = 7;
    fuzz::exercise_graph(frontend::import_onnx_bytes(bytes, "<fuzz>/model.onnx", options));
  });
  return 0;
}
