// Fuzz target: TVM graph-executor JSON through frontend::import_tvm_json, as traced and
// re-sized to 7 tokens (traced length detected); an accepted graph goes through
// fuzz::exercise_graph (tests/fuzz/fuzz_graph.hpp).
#include <cstdint>
#include <string>

#include "frontend/tvm/tvm_import.hpp"
#include "tests/fuzz/fuzz_graph.hpp"

using namespace lightcode;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::load_graph_systems();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run(data, size, [](std::string_view text) {
    fuzz::exercise_graph(frontend::import_tvm_json(text, "<fuzz>/graph.json"));
  });
  fuzz::run(data, size, [](std::string_view text) {
    frontend::TvmImportOptions options;
    options.sequence_length = 7;
    fuzz::exercise_graph(frontend::import_tvm_json(text, "<fuzz>/graph.json", options));
  });
  return 0;
}
