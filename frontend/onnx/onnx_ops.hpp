#pragma once
// The ONNX operators the importer maps, one table row each: how a node is lowered to ir ops,
// the ir kind (the kind TVM's graph-executor JSON gives the same operation, so one cost model
// serves imported TVM graphs, built-in models and ONNX files alike), and which inputs are
// tensors the op reads (the rest — Reshape's shape, Slice's starts, Unsqueeze's axes — are
// operands known at import, not data edges). Only the default domain ("" or "ai.onnx").
// An op type not in the table is an error of the importer naming the op and node
// (onnx_model.cpp); docs/ONNX.md lists the table.
#include <string_view>
#include <vector>

#include "sim/ir/op_kind.hpp"

namespace lightcode::frontend::onnx_detail {

enum class Lowering : uint8_t {
  same,        // one ir op of `kind` over the data inputs, outputs as inferred
  view,        // a reshape of input 0 (ir `nop`: no data moved)
  alias,       // input 0 itself (Identity; Dropout at inference)
  fold,        // constants and shape arithmetic: computed at import, never an op
  matmul,      // dense when B is a matrix, batched matmul otherwise (TVM's operand layout)
  gemm,        // dense, then alpha / beta scaling and the bias add
  conv,        // im2col (a gather) and one product: dense, or matmul per group
  layer_norm,  // mean, subtract, square, mean, add eps, rsqrt, multiply, scale, shift
  gelu,        // the erf form, or the tanh form for approximate="tanh"
};

struct OnnxOp {
  std::string_view type;
  Lowering lowering;
  ir::OpKind kind;             // for Lowering::same
  std::string_view kind_name;  // TVM's spelling where kind is OpKind::other
  int data_inputs;             // leading inputs that are data; kAllInputs: every one
};

inline constexpr int kAllInputs = -1;

// The row for `type` in `domain`, or nullptr when unsupported.
const OnnxOp* find_onnx_op(std::string_view domain, std::string_view type);
const std::vector<OnnxOp>& onnx_ops();  // the whole table, in documentation order
// Whether input `index` of a node of `op` is data (not an operand known at import).
inline bool is_data_input(const OnnxOp& op, int index) {
  return op.data_inputs == kAllInputs || index < op.data_inputs;
}

}  // namespace lightcode::frontend::onnx_detail
