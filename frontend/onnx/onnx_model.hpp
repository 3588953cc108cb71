#pragma once
// Internal to the ONNX importer: a file's bytes parsed into a checked ModelProto, then typed at
// a sequence length.
//  parse_model: the protobuf parsed (bytes that are not an ONNX ModelProto, a graph without
//    outputs, a node reading a value no earlier node defines, an op outside onnx_ops.hpp, a
//    node libonnx's schema rejects, names or counts above sim/core/limits.hpp: lightcode::Error
//    naming the file and the node). Initializers too large to be shape operands (weights) keep
//    their type and lose their data: the importer needs shapes, never weights.
//  infer_types: every graph input's symbolic axes set (a dim named like a batch axis, or an
//    unnamed leading axis of a rank >= 2 input, is 1; every other symbolic axis takes the
//    sequence length, an Error when none is given), then libonnx's per-node shape inference
//    in file order, with the values of small constants and shape arithmetic evaluated between
//    nodes (onnx_constants.hpp) so that Reshape, Range and Slice shapes are known.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "frontend/onnx/onnx_constants.hpp"

namespace lightcode::frontend::onnx_detail {

struct ParsedModel {
  std::string name;  // the file, in messages
  ::onnx::ModelProto model;
  int64_t opset = 0;  // of the default domain
  // Initializers and graph inputs that hold weights: constants of the graph (memory nodes of
  // role parameter). Weights are inputs in files exported with export_params=False.
  std::unordered_set<std::string> parameters;
  bool symbolic = false;  // a graph input has a symbolic axis that takes the sequence length
};

ParsedModel parse_model(std::string_view bytes, const std::string& name);

struct TypedModel {
  std::unordered_map<std::string, ::onnx::TypeProto> types;  // by value name, as inferred
  std::unordered_map<std::string, Constant> constants;       // values known at import
};

TypedModel infer_types(const ParsedModel& m, std::optional<int64_t> sequence_length);

// "graph.node[12] '/h.0/attn/Gemm' (Gemm)": where a node is, for messages.
std::string node_place(int index, const ::onnx::NodeProto& node);
[[noreturn]] void fail_node(const std::string& file, int index, const ::onnx::NodeProto& node,
                            const std::string& message);

}  // namespace lightcode::frontend::onnx_detail
