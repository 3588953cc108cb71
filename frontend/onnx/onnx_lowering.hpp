#pragma once
// Internal to the ONNX importer: a typed model (onnx_model.hpp) lowered to an ir::Graph in the
// operator vocabulary of TVM's unfused graph-executor JSON, as TVM's ONNX frontend lowers it
// with the parameters bound and constants folded:
//  - values known at import (constants, shapes, weights and whatever is computed from them
//    alone: PyTorch's position embeddings, causal masks, rotary tables) are folded; where an
//    op reads one, it is a memory node of role parameter (a graph input of role input when it
//    is fed at run time);
//  - products take TVM's operand layout, B transposed: dense [M, K] x [N, K] and batch_matmul
//    [B, M, K] x [B, N, K], so that MACs and the photonic expansion read the same dimensions
//    as for imported TVM graphs (a Transpose feeding B cancels, as TVM's SimplifyExpr does);
//  - nodes the graph outputs do not reach are left out, as TVM and the built-in builders do.
// Errors name the file and the node (node_place): a value without a static shape after
// inference, an element type outside ir::DType, shapes a product cannot take.
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/onnx/onnx_model.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::frontend::onnx_detail {

class Lowerer {
 public:
  Lowerer(const ParsedModel& m, const TypedModel& t);
  ir::Graph run();

  // For the lowering functions, about the node being lowered.
  const ::onnx::NodeProto& node() const { return *node_; }
  const std::string& node_name() const { return node_name_; }
  [[noreturn]] void fail(const std::string& message) const;
  int64_t int_attribute(const char* name, int64_t fallback) const;
  float float_attribute(const char* name, float fallback) const;
  std::string string_attribute(const char* name, const std::string& fallback) const;
  std::vector<int64_t> ints_attribute(const char* name) const;  // empty when absent

  ir::TensorType type_of(const std::string& value) const;  // static, or Error
  bool is_static(const std::string& value) const;
  const ::onnx::NodeProto* producer(const std::string& value) const;  // nullptr: graph input
  // The value as an ir input: its op's output, a graph input, or a folded constant.
  ir::Input data(const std::string& value);
  // `value` with its axes permuted: a producing Transpose cancels against it, a constant is
  // folded (one parameter per value and order), otherwise a transpose op.
  ir::Input permuted(const std::string& value, const std::vector<int>& perm,
                     const std::string& label);

  const ir::TensorType& type(ir::Input x) const;
  ir::Input add(ir::OpKind kind, const std::string& label, std::vector<ir::Input> inputs,
                std::vector<ir::TensorType> outputs, std::string kind_name = "");
  ir::Input reshape(ir::Input x, const ir::Shape& to,
                    const std::string& label);  // x itself when equal
  ir::Input transpose(ir::Input x, const std::vector<int>& perm, const std::string& label);
  ir::Input scalar(const std::string& label, ir::DType dtype);  // a folded constant
  // Output `k` of the node being lowered is `x`.
  void bind(int k, ir::Input x);

 private:
  struct ValueState {
    bool known = false;       // defined (graph input, initializer, node output)
    bool is_static = false;   // computed at import
    ir::Input ir{-1, 0};      // where it lives in the ir graph, once there
    int producer = -1;        // index of the ONNX node defining it; -1 for graph inputs
    std::string unavailable;  // why it cannot be read ("" when it can)
    std::string alias;        // the value it is (Identity's output): its state is that one's
  };
  const std::string& canonical(const std::string& value) const;
  const ValueState& state(const std::string& value) const;
  ir::Input memory(const std::string& name, const ir::TensorType& type, ir::MemoryRole role);
  void lower_node(int index);

  const ParsedModel& model_;
  const TypedModel& typed_;
  std::unordered_map<std::string, ValueState> values_;
  std::unordered_map<std::string, ir::Input> folded_;  // permuted constants, by value and order
  std::vector<ir::Node> nodes_;
  const ::onnx::NodeProto* node_ = nullptr;
  int index_ = -1;
  std::string node_name_;
};

// Lowering of the ops that are more than one ir op (onnx_products.cpp, onnx_composites.cpp).
void lower_matmul(Lowerer& l);
void lower_gemm(Lowerer& l);
void lower_conv(Lowerer& l);
void lower_layer_norm(Lowerer& l);
void lower_gelu(Lowerer& l);

}  // namespace lightcode::frontend::onnx_detail
