#pragma once
// Operator kinds in the original's vocabulary: the last `_`-separated, non-numeric part of a
// TVM `func_name` ("tvmgen_default_fused_nn_batch_matmul_2" -> matmul, "__nop" -> nop,
// "strided_slice" -> slice); graph inputs are `memory`. Kinds outside the list are kept as
// OpKind::other with their spelling in Node::kind_name, so fused or exotic graphs still load.
#include <cstdint>
#include <string_view>

namespace lightcode::ir {

enum class OpKind : uint8_t {
  memory, nop, add, subtract, multiply, divide, sqrt, rsqrt, power, transpose, negative, cast,
  equal, relu, tanh, sigmoid, softmax, less, take, where, erf, slice, concatenate, mean, dense,
  matmul, pack, split, exp, max, sum, reshape,
  // Collectives of a tensor-parallel group and the transfer between pipeline stages: the
  // sharding frontend (frontend/models/sharding.hpp) adds them, attribute `ranks` = the group's
  // size; only an interconnect unit runs them (hw_models/interconnect/).
  all_reduce, all_gather, reduce_scatter, send_recv,
  other,
  // Produced by the optimizer, never by a frontend: the expansion of photonic products into
  // one 2-D product per batch element between SRAM split/merge, and each subgraph's start.
  sram_split, matrix_matrix, sram_merge, start,
};

inline constexpr int kOpKindCount = static_cast<int>(OpKind::start) + 1;

std::string_view op_kind_name(OpKind k);
OpKind parse_op_kind(std::string_view name);  // OpKind::other when unknown
// The original's rule for TVM function names.
std::string_view kind_from_func_name(std::string_view func_name);
// Graph inputs and the optimizer's bookkeeping (SRAM split/merge, start): only memory units
// and the start pseudo-unit run them, never a compute unit.
inline bool is_bookkeeping(OpKind k) {
  return k == OpKind::memory || k == OpKind::sram_split || k == OpKind::sram_merge ||
         k == OpKind::start;
}
// dense, matmul (batch_matmul) and pack: the matrix products a PHU can run.
inline bool is_matrix_product(OpKind k) {
  return k == OpKind::dense || k == OpKind::matmul || k == OpKind::pack ||
         k == OpKind::matrix_matrix;
}

// Reshapes (TVM's `nop`, `reshape`): views of their input, no data moved.
inline bool is_view(OpKind k) { return k == OpKind::nop || k == OpKind::reshape; }

// The collectives and the point-to-point transfer above: data movement between devices.
inline bool is_collective(OpKind k) {
  return k == OpKind::all_reduce || k == OpKind::all_gather || k == OpKind::reduce_scatter ||
         k == OpKind::send_recv;
}

// What a compute unit of one device may run: neither bookkeeping nor data movement between
// devices (an interconnect runs those).
inline bool is_device_compute(OpKind k) { return !is_bookkeeping(k) && !is_collective(k); }

}  // namespace lightcode::ir
