#pragma once
// ONNX model files (a PyTorch torch.onnx.export; opsets up to 17, as libonnx 1.12 knows them) ->
// ir::Graph, a model source like a TVM graph file: the graph is what was exported (prefill of
// a prompt, a decode step), in the operator vocabulary of TVM graphs and built-in models
// (frontend/onnx/onnx_ops.hpp maps the ops; docs/ONNX.md). Shapes come from the file and
// libonnx's shape inference; a symbolic axis takes `sequence_length` (a batch-like axis takes
// 1; frontend/onnx/onnx_model.hpp has the rule). A file without symbolic axes is re-sized as a
// TVM graph is (ir::Graph::resize_sequence from its traced length, detected from input_ids
// unless given). Weights may be initializers or graph inputs (export_params=False); only
// initializers small enough to be shape operands are read (onnx_constants.hpp). Errors are lightcode::Error naming the file: bytes that are not an
// ONNX model, an unsupported op (naming the op, the node and its index), a shape inference
// cannot fix, a symbolic axis without a length. Files are read through read_input_file,
// within limits::kGraphFileBytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/ir/graph.hpp"

namespace lightcode::frontend {

struct OnnxImportOptions {
  std::optional<int64_t>
      sequence_length;                   // the symbolic axes' length; required if the file has one
  std::optional<int64_t> traced_length;  // files without symbolic axes: the length exported at
  ir::InputTypeRule input_rule = ir::InputTypeRule::own_entry;
};

// A file is parsed once per process while it is unchanged (sim/core/input_file.hpp,
// reuse_input_file); each call infers the shapes at its own length.
ir::Graph import_onnx_file(const std::string& path, const OnnxImportOptions& options = {});
// `name` stands in for the file in errors.
ir::Graph import_onnx_bytes(std::string_view bytes, const std::string& name,
                            const OnnxImportOptions& options = {});
// The checks that need no length (the file parses, every op is supported and well-formed):
// a scenario's input check before its points run.
void check_onnx_file(const std::string& path);

// Whether `path` names an ONNX file by its extension (".onnx").
bool is_onnx_path(std::string_view path);

}  // namespace lightcode::frontend
