#pragma once
// Internal to the ONNX importer: the kernels onnx_evaluate.cpp runs on small known tensors
// (onnx_constants.hpp). Each returns nothing when its inputs do not fit (shapes that do not
// broadcast, an index out of range, an overflow, a result above kFoldElements): the value then
// stays unknown, never wrong.
#include <optional>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_constants.hpp"

namespace lightcode::frontend::onnx_detail {

using Dims = std::vector<int64_t>;

// Element e as a double (integers up to 2^53 exactly; integer arithmetic never goes through it).
double real_at(const Constant& c, size_t e);
// numpy broadcasting of up to three shapes.
std::optional<Dims> broadcast(const std::vector<const Dims*>& shapes);
// For each element of a tensor of `out`, the flat index of the element of `dims` it reads.
std::vector<size_t> broadcast_index(const Dims& dims, const Dims& out);
// A negative axis counts from the end; false when out of range.
bool normalise_axis(int64_t& axis, size_t rank);

// Add Sub Mul Div Min Max Equal Less Greater LessOrEqual GreaterOrEqual And Or Not Neg Abs
// Floor Ceil Sqrt Where (three inputs), broadcasting; integer arithmetic that would overflow,
// and division by zero, give nothing.
std::optional<std::vector<Constant>> elementwise(const std::string& op,
                                                 const std::vector<const Constant*>& in);
std::optional<std::vector<Constant>> cast(const Constant& x, int64_t to);
std::optional<std::vector<Constant>> gather(const Constant& data, const Constant& idx,
                                            int64_t axis);
std::optional<std::vector<Constant>> slice(const Constant& x, const Dims& starts, const Dims& ends,
                                           std::optional<Dims> axes, std::optional<Dims> steps);
std::optional<std::vector<Constant>> concat(const std::vector<const Constant*>& in, int64_t axis);
std::optional<std::vector<Constant>> expand(const Constant& x, const Dims& shape);
// Reshape's target dims (0 copies the input's dim unless allow_zero; one -1 is inferred).
std::optional<Dims> reshape_dims(const Dims& from, const Dims& shape, bool allow_zero);

}  // namespace lightcode::frontend::onnx_detail
