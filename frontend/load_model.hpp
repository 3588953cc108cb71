#pragma once
// One entry point for "a model" on the command line and in scenarios: a graph file or a
// built-in model name from configs/models/. A graph file is anything that names an existing
// file, contains a '/' or ends in .json or .onnx: an ONNX model when it ends in .onnx
// (frontend/onnx/onnx_import.hpp), a TVM graph-executor JSON file otherwise. A graph file is
// the stage it was traced or exported as; `length` re-sizes a TVM graph and sets an ONNX
// model's symbolic sequence axis. Builds or imports, re-sizes to the requested length,
// validates.
#include <cstdint>
#include <optional>
#include <string>

#include "frontend/models/model_builder.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::frontend {

struct ModelRequest {
  std::string model;              // path to graph.json or model.onnx, or a built-in name ("gpt2")
  Stage stage = Stage::prefill;   // built-in models only; a graph file is what it was traced as
  std::optional<int64_t> length;  // prefill: tokens; decode: KV-cache length
  std::optional<int64_t> traced_length;  // TVM files and ONNX files without a symbolic axis:
                                         // override the detected traced length
  ir::InputTypeRule input_rule = ir::InputTypeRule::own_entry;
  Logits logits = Logits::last;   // built-in models only (model_builder.hpp)
  int precision_bits = 0;         // every matrix product's required bits (sim/ir/precision.hpp); 0: none
  bool dtype_precision = false;   // every matrix product requires its dtype's bits instead
  Parallelism parallel;           // built-in models: one device's share (parallelism.hpp)
};

inline constexpr int64_t kDefaultBuiltinLength = 128;

bool is_graph_file(const std::string& model);
// Imports a graph file as traced (no re-sizing) or, for an ONNX model, runs the checks that
// need no length: a scenario's input check before its points run. lightcode::Error as the
// importers give.
void check_graph_file(const std::string& path);
// Builds or imports the model, then sets request.precision_bits on every matrix product.
ir::Graph load_model(const ModelRequest& request);

}  // namespace lightcode::frontend
