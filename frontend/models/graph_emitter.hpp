#pragma once
// Internal to the model builders: records a dataflow graph in Relay's operator vocabulary
// (TVM graph-executor spellings: reshapes are `nop`, strided_slice is `slice`, broadcast_to
// is `to`, scatter_nd is `nd`), inferring each op's output type, and emits it as an
// ir::Graph in the order TVM's graph-executor codegen would: graph inputs first, in
// declaration order, then a post-order depth-first walk from the outputs (arguments in
// order, each node once). Parameters are emitted where the walk first reaches them, so node
// ids, and every tie-break downstream that uses them, agree with imported TVM graphs.
// Builder bugs (shapes that do not fit) throw std::logic_error.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/ir/graph.hpp"

namespace lightcode::frontend::detail {

struct Value {  // one output of a node under construction
  ir::NodeId node = -1;
  int32_t output = 0;
};

class GraphEmitter {
 public:
  GraphEmitter(ir::DType float_type, size_t node_hint);

  ir::DType float_type() const { return float_type_; }
  const ir::TensorType& type(Value v) const;
  const ir::Shape& shape(Value v) const { return type(v).shape; }

  // Names of the nodes that follow: "<scope>.<label>".
  void set_scope(std::string scope) { scope_ = std::move(scope); }

  // Graph inputs (tokens, masks, KV cache); role input.
  Value input(std::string name, ir::Shape shape, ir::DType dtype);
  // Weights and folded constants; role parameter. Named "<scope>.<label>".
  Value param(std::string_view label, ir::Shape shape, ir::DType dtype);
  Value param(std::string_view label, ir::Shape shape) { return param(label, shape, float_type_); }
  Value scalar(std::string_view label) { return param(label, ir::Shape{}, float_type_); }
  Value scalar(std::string_view label, ir::DType dtype) { return param(label, ir::Shape{}, dtype); }
  void set_attr(Value v, std::string key, std::string value);

  // A node of kind `kind` (TVM's spelling) with explicit output types.
  Value op(std::string_view kind, std::string_view label, std::initializer_list<Value> inputs,
           const ir::TensorType& out);
  void output(Value v) { heads_.push_back(ir::Input{v.node, v.output}); }

  // Typed ops. Binary element-wise ops broadcast numpy-style and keep the first non-scalar
  // operand's dtype; comparisons yield uint1.
  Value reshape(Value x, ir::Shape shape, std::string_view label = "reshape");
  Value transpose(Value x, std::initializer_list<int> perm, std::string_view label = "transpose");
  Value binary(std::string_view kind, Value a, Value b, std::string_view label);
  Value add(Value a, Value b, std::string_view label = "add") { return binary("add", a, b, label); }
  Value subtract(Value a, Value b, std::string_view label = "subtract") {
    return binary("subtract", a, b, label);
  }
  Value multiply(Value a, Value b, std::string_view label = "multiply") {
    return binary("multiply", a, b, label);
  }
  Value divide(Value a, Value b, std::string_view label = "divide") {
    return binary("divide", a, b, label);
  }
  Value power(Value a, Value b, std::string_view label = "power") {
    return binary("power", a, b, label);
  }
  Value compare(std::string_view kind, Value a, Value b, std::string_view label);
  Value unary(std::string_view kind, Value x, std::string_view label);
  Value cast(Value x, ir::DType to, std::string_view label = "cast");
  Value mean_last(Value x, std::string_view label = "mean");  // keepdims over the last axis
  Value softmax(Value x, std::string_view label = "softmax") { return unary("softmax", x, label); }
  Value dense(Value x, Value w, std::string_view label);         // [M, K] x [N, K] -> [M, N]
  Value batch_matmul(Value a, Value b, std::string_view label);  // [B,M,K] x [B,N,K] -> [B,M,N]
  Value where(Value cond, Value a, Value b, std::string_view label = "where");
  Value take(Value table, Value indices, std::string_view label = "take");  // rows of a table
  Value strided_slice(Value x, int axis, int64_t begin, int64_t end,
                      std::string_view label = "strided_slice");
  Value concatenate(Value a, Value b, int axis, std::string_view label = "concatenate");
  std::vector<Value> split_last(Value x, int parts, std::string_view label = "split");
  Value broadcast_to(Value x, ir::Shape shape, std::string_view label = "broadcast_to");
  Value scatter_nd(Value data, Value indices, Value updates, std::string_view label = "scatter_nd");

  // Consumes the recording. Nodes the outputs do not reach are left out, as TVM does.
  ir::Graph finish(std::string source);

 private:
  std::string name_of(std::string_view label) const;

  ir::DType float_type_;
  std::vector<ir::Node> nodes_;
  std::vector<ir::NodeId> inputs_;  // graph inputs in declaration order
  std::vector<ir::Input> heads_;
  std::string scope_;
};

}  // namespace lightcode::frontend::detail
