#include "sim/ir/metrics.hpp"

#include <algorithm>

#include "sim/core/checked.hpp"

namespace lightcode::ir {

int64_t node_macs(const Node& n) {
  if (!is_matrix_product(n.kind) || n.input_types.empty() || n.outputs.empty()) return 0;
  return checked_mul(n.output().shape.elements(), n.input_type(0).shape.back(), [&n] { return "the MACs of " + n.name; });
}

int64_t node_flops(const Node& n) {
  const int64_t out = n.outputs.empty() ? 0 : n.output().shape.elements();
  switch (n.kind) {
    case OpKind::dense:
    case OpKind::matmul:
    case OpKind::pack:
    case OpKind::matrix_matrix:
      return checked_mul(2, node_macs(n), [&n] { return "the FLOPs of " + n.name; });
    case OpKind::add: case OpKind::subtract: case OpKind::multiply: case OpKind::divide:
    case OpKind::sqrt: case OpKind::rsqrt: case OpKind::power: case OpKind::negative:
    case OpKind::equal: case OpKind::less: case OpKind::where: case OpKind::relu:
    case OpKind::tanh: case OpKind::sigmoid: case OpKind::erf: case OpKind::exp:
    case OpKind::max:
      return out;
    case OpKind::softmax:
      return checked_mul(5, out, [&n] { return "the FLOPs of " + n.name; });
    case OpKind::mean:
    case OpKind::sum:
      return checked_add(n.input_types.empty() ? 0 : n.input_type(0).shape.elements(),
                         n.kind == OpKind::mean ? out : 0, [&n] { return "the FLOPs of " + n.name; });
    default:
      return 0;
  }
}

namespace {

void add_to(int64_t& total, int64_t v, std::string_view what) { total = checked_add(total, v, what); }

}  // namespace

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
      for (const auto& t : n.outputs) add_to(bucket[std::string(dtype_name(t.dtype))], t.bytes(), "the graph's memory bytes");
      continue;
    }
    for (const auto& t : n.outputs) add_to(s.activation_bytes[std::string(dtype_name(t.dtype))], t.bytes(), "activation bytes");
    add_to(s.macs, node_macs(n), "the graph's MACs");
    add_to(s.flops, node_flops(n), "the graph's FLOPs");
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
