#pragma once
// Internal to the ONNX importer: small tensors whose values are known at import — constants,
// shapes and the integer arithmetic exporters build on them (PyTorch exports `x.view(b, n, h,
// d)` as Shape -> Gather -> Unsqueeze -> Concat -> Reshape). libonnx's node-level shape
// inference reads these values (Reshape's shape, Range's limit, Slice's ends), so evaluating
// them is what makes every shape static once the symbolic axes are set. Only tensors of at
// most kFoldElements elements are evaluated (shape vectors are a few numbers; weights and
// large masks are never needed), so a hostile file cannot make the importer allocate.
// evaluate() returns nothing when it does not know the op or the inputs do not fit; the
// value then stays unknown and a shape that needs it is reported by the importer.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace lightcode::frontend::onnx_detail {

inline constexpr int64_t kFoldElements = 4096;

struct Constant {
  int32_t elem_type = 0;  // onnx::TensorProto::DataType
  std::vector<int64_t> dims;
  std::vector<int64_t> ints;  // integer and bool types (0 / 1)
  std::vector<double> reals;  // floating-point types
  bool integral() const;
  int64_t size() const;  // elements
};

// Elements of a tensor of `dims`; -1 when a dimension is negative or the count is above
// kFoldElements.
int64_t fold_elements(const std::vector<int64_t>& dims);
bool integral_type(int32_t elem_type);  // integers and bool
bool real_type(int32_t elem_type);      // float and double (the floating types evaluated here)

// The value of `t` when it is stored inline, has a numeric type and at most kFoldElements
// elements (its data agreeing with its dims); otherwise nothing.
std::optional<Constant> constant_of(const ::onnx::TensorProto& t);
// The value as a TensorProto (typed fields), for libonnx's inference context.
::onnx::TensorProto to_tensor(const Constant& c);

// The node's outputs when `node` is an op evaluated here (onnx_evaluate.cpp) and every input it
// reads is known. `inputs[i]` is input i's value or nullptr; `types[i]` its inferred type or
// nullptr (Shape and Size read only the type).
std::optional<std::vector<Constant>> evaluate(const ::onnx::NodeProto& node,
                                              const std::vector<const Constant*>& inputs,
                                              const std::vector<const ::onnx::TypeProto*>& types);

}  // namespace lightcode::frontend::onnx_detail
