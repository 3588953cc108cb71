#pragma once
// The precision a matrix product requires: the bits its operands must keep on a unit that
// computes at reduced precision (a photonic core's converters, hw_models/phu). In order:
//   1. node.required_bits, set on every product by a scenario's `precision:` (require_bits);
//   2. when every operand is of an integer type, the widest operand's bits (int8 -> 8);
//   3. none: a floating-point product runs at the bits of whatever unit computes it.
// Only matrix products carry a requirement; every other op has none.
#include <optional>

#include "sim/ir/graph.hpp"

namespace lightcode::ir {

std::optional<int> required_bits(const Node& op);
// Sets `bits` (1 .. limits::kPrecisionBits) as the requirement of every matrix product.
void require_bits(Graph& graph, int bits);
// The bits a dtype holds as a product's precision: 8 per byte, at most limits::kPrecisionBits
// (float32: 24, its significand).
int held_bits(DType t);
// Sets every matrix product's requirement to the bits its first operand's dtype holds: a
// product keeps the precision of its dtype wherever it runs.
void require_dtype_bits(Graph& graph);

}  // namespace lightcode::ir
