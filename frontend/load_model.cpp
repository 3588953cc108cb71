#include "frontend/load_model.hpp"

#include <filesystem>

#include "frontend/models/model_config.hpp"
#include "frontend/onnx/onnx_import.hpp"
#include "frontend/tvm/tvm_import.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/precision.hpp"

namespace lightcode::frontend {

bool is_graph_file(const std::string& model) {
  const bool json_name = model.size() > 5 && model.compare(model.size() - 5, 5, ".json") == 0;
  std::error_code ec;  // a name too long for a path is simply not a file
  return json_name || is_onnx_path(model) || model.find('/') != std::string::npos ||
         std::filesystem::is_regular_file(model, ec);
}

void check_graph_file(const std::string& path) {
  if (is_onnx_path(path)) {
    check_onnx_file(path);
  } else {
    import_tvm_file(path);
  }
}

namespace {

ir::Graph build_or_import(const ModelRequest& request) {
  if (request.length && *request.length < 1) {
    throw Error((request.stage == Stage::decode ? "KV-cache length" : std::string("sequence length")) +
                std::string(" must be positive, got ") + std::to_string(*request.length));
  }
  if (is_graph_file(request.model)) {
    if (!request.parallel.unsharded()) {
      throw Error("'" + request.model + "': tensor and pipeline parallelism shard built-in models; a graph file is "
                  "one device's graph as traced");
    }
    if (is_onnx_path(request.model)) {
      OnnxImportOptions options;
      options.input_rule = request.input_rule;
      options.sequence_length = request.length;
      options.traced_length = request.traced_length;
      return import_onnx_file(request.model, options);
    }
    TvmImportOptions options;
    options.input_rule = request.input_rule;
    options.sequence_length = request.length;
    options.traced_length = request.traced_length;
    return import_tvm_file(request.model, options);
  }
  const ModelConfig config = builtin_model(request.model);
  ir::Graph g = build_model(config, request.stage, request.length.value_or(kDefaultBuiltinLength), request.logits,
                            request.parallel);
  if (request.input_rule != g.input_rule()) g.apply_input_rule(request.input_rule);
  g.validate();
  return g;
}

}  // namespace

ir::Graph load_model(const ModelRequest& request) {
  ir::Graph g = build_or_import(request);
  if (request.precision_bits != 0) ir::require_bits(g, request.precision_bits);
  if (request.dtype_precision) ir::require_dtype_bits(g);
  return g;
}

}  // namespace lightcode::frontend
