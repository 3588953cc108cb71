#include "sim/ir/metrics.hpp"

#include <algorithm>

namespace lightcode::ir {

int64_t node_macs(const Node& n) {
  if (!is_matrix_product(n.kind) || n.input_types.empty()) return 0;
  return n.output().shape.elements() * n.input_type(0).shape.back();
}

int64_t node_flops(const Node& n) {
  const int64_t out = n.outputs.empty() ? 0 : n.output().shape.elements();
  switch (n.kind) {
    case OpKind::dense:
    case OpKind::matmul:
    case OpKind::pack:
    case OpKind::matrix_matrix:
      return 2 * node_macs(n);
    case OpKind::add: case OpKind::subtract: case OpKind::multiply: case OpKind::divide:
    case OpKind::sqrt: case OpKind::rsqrt: case OpKind::power: case OpKind::negative:
    case OpKind::equal: case OpKind::less: case OpKind::where: case OpKind::relu:
    case OpKind::tanh: case OpKind::sigmoid: case OpKind::erf: case OpKind::exp:
    case OpKind::max:
      return out;
    case OpKind::softmax:
      return 5 * out;
    case OpKind::mean:
    case OpKind::sum:
      return (n.input_types.empty() ? 0 : n.input_type(0).shape.elements()) +
             (n.kind == OpKind::mean ? out : 0);
    default:
      return 0;
  }
}

GraphSummary summarize(const Graph& g, size_t top) {
  GraphSummary s;
  s.nodes = g.size();
  std::vector<MatrixProduct> products;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    ++s.kinds[n.kind_name];
    if (n.kind == OpKind::memory) {
      ++s.memory_nodes;
      auto& bucket = n.role == MemoryRole::input ? s.input_bytes : s.parameter_bytes;
      for (const auto& t : n.outputs) bucket[std::string(dtype_name(t.dtype))] += t.bytes();
      continue;
    }
    for (const auto& t : n.outputs) s.activation_bytes[std::string(dtype_name(t.dtype))] += t.bytes();
    s.macs += node_macs(n);
    s.flops += node_flops(n);
    if (is_matrix_product(n.kind)) {
      MatrixProduct p;
      p.id = static_cast<NodeId>(i);
      p.name = n.name;
      p.kind = n.kind_name;
      for (const auto& t : n.input_types) p.inputs.push_back(t.shape);
      p.output = n.output().shape;
      p.macs = node_macs(n);
      products.push_back(std::move(p));
    }
  }
  std::stable_sort(products.begin(), products.end(),
                   [](const MatrixProduct& a, const MatrixProduct& b) { return a.macs > b.macs; });
  if (products.size() > top) products.resize(top);
  s.largest_products = std::move(products);
  return s;
}

}  // namespace lightcode::ir
