#pragma once
// Nodes for tests: a free-standing op with given input and output shapes (what cost models
// read), or a node wired to producers (for graph tests).
#include <memory>
#include <string>
#include <vector>

#include "sim/ir/graph.hpp"

namespace lightcode::test {

inline ir::Node op(const std::string& kind, std::vector<ir::Shape> inputs, ir::Shape output,
                   ir::DType dtype = ir::DType::float32) {
  ir::Node n;
  n.kind_name = kind;
  n.kind = ir::parse_op_kind(kind);
  n.name = kind;
  for (const ir::Shape& s : inputs) n.input_types.push_back({s, dtype});
  n.inputs.resize(inputs.size());
  n.outputs = {{output, dtype}};
  return n;
}

// A graph input (kind `memory`) holding one tensor.
inline ir::Node memory(const std::string& name, ir::Shape shape, ir::DType dtype = ir::DType::float16) {
  ir::Node n;
  n.kind = ir::OpKind::memory;
  n.kind_name = "memory";
  n.name = name;
  n.outputs = {ir::TensorType{shape, dtype}};
  return n;
}

inline ir::Node wired(const std::string& kind, std::vector<ir::Input> inputs, ir::Shape output) {
  ir::Node n;
  n.kind_name = kind;
  n.kind = ir::parse_op_kind(kind);
  n.name = kind;
  n.inputs = std::move(inputs);
  n.outputs = {ir::TensorType{output, ir::DType::float32}};
  return n;
}

// `n` called `name` (graphs whose tests find nodes or tasks by name).
inline ir::Node named(ir::Node n, const std::string& name) {
  n.name = name;
  return n;
}

// One dense product "big", [rows, 16384] x [16384, 16384] float16, the graph's only op: on
// H100 + DOTA-B the joint search splits it between the PHU and the GPU.
inline std::unique_ptr<ir::Graph> big_product_graph(int64_t rows) {
  auto graph = std::make_unique<ir::Graph>();
  const ir::NodeId x = graph->add(memory("x", ir::Shape{rows, 16384}));
  const ir::NodeId w = graph->add(memory("w", ir::Shape{16384, 16384}));
  ir::Node d;
  d.kind = ir::OpKind::dense;
  d.kind_name = "dense";
  d.name = "big";
  d.inputs = {{x, 0}, {w, 0}};
  d.outputs = {ir::TensorType{ir::Shape{rows, 16384}, ir::DType::float16}};
  graph->add_head({graph->add(std::move(d)), 0});
  graph->validate();
  return graph;
}

}  // namespace lightcode::test
