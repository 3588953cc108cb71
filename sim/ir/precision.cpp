#include "sim/ir/precision.hpp"

#include <algorithm>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::ir {

std::optional<int> required_bits(const Node& op) {
  if (!is_matrix_product(op.kind)) return std::nullopt;
  if (op.required_bits != 0) return op.required_bits;
  int widest = 0;
  for (const TensorType& t : op.input_types) {
    const std::optional<int> bits = integer_bits(t.dtype);
    if (!bits) return std::nullopt;  // a floating-point operand: no integer requirement
    widest = std::max(widest, *bits);
  }
  return widest > 0 ? std::optional<int>(widest) : std::nullopt;
}

void require_bits(Graph& graph, int bits) {
  if (bits < 1 || bits > limits::kPrecisionBits.value) {
    throw Error("a required precision of " + std::to_string(bits) + " bits is outside 1.." +
                std::to_string(limits::kPrecisionBits.value));
  }
  for (size_t i = 0; i < graph.size(); ++i) {
    Node& n = graph.mutable_node(static_cast<NodeId>(i));
    if (is_matrix_product(n.kind)) n.required_bits = static_cast<uint8_t>(bits);
  }
}

int held_bits(DType t) {
  return std::min(8 * dtype_bytes(t), static_cast<int>(limits::kPrecisionBits.value));
}

void require_dtype_bits(Graph& graph) {
  for (size_t i = 0; i < graph.size(); ++i) {
    Node& n = graph.mutable_node(static_cast<NodeId>(i));
    if (is_matrix_product(n.kind) && !n.input_types.empty())
      n.required_bits = static_cast<uint8_t>(held_bits(n.input_type(0).dtype));
  }
}

}  // namespace lightcode::ir
