#include "frontend/onnx/onnx_ops.hpp"

namespace lightcode::frontend::onnx_detail {
namespace {

using ir::OpKind;
using L = Lowering;

// Kinds outside OpKind keep TVM's spelling of the Relay op (OpKind::other with kind_name), as
// the TVM importer keeps them: CPU models run them element-wise; GPU and PHU models decide.
std::vector<OnnxOp> make_table() {
  return {
      // Matrix products.
      {"MatMul", L::matmul, OpKind::dense, "", kAllInputs},
      {"Gemm", L::gemm, OpKind::dense, "", kAllInputs},
      {"Conv", L::conv, OpKind::dense, "", kAllInputs},
      // Element-wise arithmetic (numpy broadcasting; shapes from inference).
      {"Add", L::same, OpKind::add, "", kAllInputs},
      {"Sub", L::same, OpKind::subtract, "", kAllInputs},
      {"Mul", L::same, OpKind::multiply, "", kAllInputs},
      {"Div", L::same, OpKind::divide, "", kAllInputs},
      {"Reciprocal", L::same, OpKind::divide, "", kAllInputs},  // TVM: divide(1, x)
      {"Pow", L::same, OpKind::power, "", kAllInputs},
      {"Sqrt", L::same, OpKind::sqrt, "", kAllInputs},
      {"Neg", L::same, OpKind::negative, "", kAllInputs},
      {"Exp", L::same, OpKind::exp, "", kAllInputs},
      {"Tanh", L::same, OpKind::tanh, "", kAllInputs},
      {"Sigmoid", L::same, OpKind::sigmoid, "", kAllInputs},
      {"Erf", L::same, OpKind::erf, "", kAllInputs},
      {"Relu", L::same, OpKind::relu, "", kAllInputs},
      {"Max", L::same, OpKind::max, "", kAllInputs},
      {"Min", L::same, OpKind::other, "minimum", kAllInputs},
      {"Abs", L::same, OpKind::other, "abs", kAllInputs},
      {"Log", L::same, OpKind::other, "log", kAllInputs},
      {"Sin", L::same, OpKind::other, "sin", kAllInputs},
      {"Cos", L::same, OpKind::other, "cos", kAllInputs},
      {"Floor", L::same, OpKind::other, "floor", kAllInputs},
      {"Ceil", L::same, OpKind::other, "ceil", kAllInputs},
      {"LeakyRelu", L::same, OpKind::other, "leaky_relu", kAllInputs},
      {"HardSigmoid", L::same, OpKind::other, "hard_sigmoid", kAllInputs},
      {"HardSwish", L::same, OpKind::other, "hard_swish", kAllInputs},
      {"Softplus", L::same, OpKind::other, "softplus", kAllInputs},
      {"Clip", L::same, OpKind::other, "clip", 1},
      {"Gelu", L::gelu, OpKind::erf, "", 1},
      // Comparisons and selection.
      {"Equal", L::same, OpKind::equal, "", kAllInputs},
      {"Less", L::same, OpKind::less, "", kAllInputs},
      {"Greater", L::same, OpKind::other, "greater", kAllInputs},
      {"LessOrEqual", L::same, OpKind::other, "less_equal", kAllInputs},
      {"GreaterOrEqual", L::same, OpKind::other, "greater_equal", kAllInputs},
      {"Not", L::same, OpKind::other, "logical_not", kAllInputs},
      {"And", L::same, OpKind::other, "logical_and", kAllInputs},
      {"Or", L::same, OpKind::other, "logical_or", kAllInputs},
      {"Where", L::same, OpKind::where, "", kAllInputs},
      {"Cast", L::same, OpKind::cast, "", 1},
      {"CastLike", L::same, OpKind::cast, "", 1},
      // Normalisation, reductions, softmax.
      {"Softmax", L::same, OpKind::softmax, "", 1},
      {"LogSoftmax", L::same, OpKind::softmax, "", 1},  // TVM: log_softmax
      {"LayerNormalization", L::layer_norm, OpKind::mean, "", kAllInputs},
      {"BatchNormalization", L::same, OpKind::other, "batch_norm", kAllInputs},
      {"ReduceMean", L::same, OpKind::mean, "", 1},
      {"ReduceSum", L::same, OpKind::sum, "", 1},
      {"ReduceMax", L::same, OpKind::max, "", 1},
      {"ReduceMin", L::same, OpKind::other, "min", 1},
      {"ArgMax", L::same, OpKind::other, "argmax", 1},
      {"GlobalAveragePool", L::same, OpKind::mean, "", 1},
      {"AveragePool", L::same, OpKind::other, "avg_pool", 1},
      {"MaxPool", L::same, OpKind::other, "max_pool", 1},
      // Data movement.
      {"Transpose", L::same, OpKind::transpose, "", 1},
      {"Gather", L::same, OpKind::take, "", kAllInputs},  // embeddings: rows of a table
      {"GatherElements", L::same, OpKind::other, "gather", kAllInputs},
      {"GatherND", L::same, OpKind::other, "gather_nd", kAllInputs},
      {"ScatterND", L::same, OpKind::other, "nd", kAllInputs},  // TVM: scatter_nd
      {"Slice", L::same, OpKind::slice, "", 1},
      {"Concat", L::same, OpKind::concatenate, "", kAllInputs},
      {"Split", L::same, OpKind::split, "", 1},
      {"Expand", L::same, OpKind::other, "to", 1},  // TVM: broadcast_to
      {"Tile", L::same, OpKind::other, "tile", 1},
      {"Pad", L::same, OpKind::other, "pad", 1},
      {"Trilu", L::same, OpKind::other, "trilu", 1},
      // Views and aliases.
      {"Reshape", L::view, OpKind::nop, "", 1},
      {"Flatten", L::view, OpKind::nop, "", 1},
      {"Squeeze", L::view, OpKind::nop, "", 1},
      {"Unsqueeze", L::view, OpKind::nop, "", 1},
      {"Identity", L::alias, OpKind::nop, "", 1},
      {"Dropout", L::alias, OpKind::nop, "", 1},
      // Shapes and constants: folded, as TVM folds them once the shapes are fixed.
      {"Constant", L::fold, OpKind::other, "", 0},
      {"ConstantOfShape", L::fold, OpKind::other, "", 0},
      {"Shape", L::fold, OpKind::other, "", 0},
      {"Size", L::fold, OpKind::other, "", 0},
      {"Range", L::fold, OpKind::other, "", kAllInputs},
      {"Einsum", L::fold, OpKind::other, "", kAllInputs},  // rotary tables: outer products
  };
}

}  // namespace

const std::vector<OnnxOp>& onnx_ops() {
  static const std::vector<OnnxOp> table = make_table();
  return table;
}

const OnnxOp* find_onnx_op(std::string_view domain, std::string_view type) {
  if (!domain.empty() && domain != "ai.onnx") return nullptr;
  for (const OnnxOp& op : onnx_ops()) {
    if (op.type == type) return &op;
  }
  return nullptr;
}

}  // namespace lightcode::frontend::onnx_detail
