#pragma once
// Graph comparisons for tests, stronger than ir::isomorphism_mismatch: node for node in id
// order, so two builders (or a builder and a TVM import) agree on every id-based tie-break.
#include <algorithm>
#include <string>

#include "sim/ir/graph.hpp"

namespace lightcode::test {

// One node as "node <id> <kind> '<name>' <- <inputs with types> -> <output types>".
inline std::string describe_node(const ir::Graph& g, ir::NodeId id) {
  const ir::Node& n = g.node(id);
  std::string s = "node " + std::to_string(id) + " " + n.kind_name + " '" + n.name + "' <-";
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    s += " " + std::to_string(n.inputs[i].node) + "." + std::to_string(n.inputs[i].output) +
         n.input_types[i].shape.str() + std::string(ir::dtype_name(n.input_types[i].dtype));
  }
  s += " ->";
  for (const auto& t : n.outputs) s += " " + t.shape.str() + std::string(ir::dtype_name(t.dtype));
  return s;
}

// Stronger than isomorphism: the same nodes with the same ids, edges and heads, so that every
// tie-break by node id downstream agrees. "" when identical up to names.
inline std::string ordered_difference(const ir::Graph& a, const ir::Graph& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    const ir::Node& x = a.node(id);
    const ir::Node& y = b.node(id);
    if (x.kind != y.kind || x.kind_name != y.kind_name || x.inputs.size() != y.inputs.size() ||
        !std::equal(x.inputs.begin(), x.inputs.end(), y.inputs.begin()) || x.outputs != y.outputs ||
        x.input_types != y.input_types || x.role != y.role) {
      return "first difference:\n  " + describe_node(a, id) + "\n  " + describe_node(b, id);
    }
  }
  if (a.size() != b.size()) {
    return std::to_string(a.size()) + " nodes vs " + std::to_string(b.size());
  }
  if (a.heads().size() != b.heads().size() ||
      !std::equal(a.heads().begin(), a.heads().end(), b.heads().begin())) {
    return "graph outputs differ";
  }
  return "";
}

}  // namespace lightcode::test
