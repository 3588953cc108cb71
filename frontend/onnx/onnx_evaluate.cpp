// Evaluation of the small tensors of shape arithmetic (onnx_constants.hpp): which op reads
// which inputs and attributes; the arithmetic itself is in onnx_kernels.cpp. Anything not
// handled here returns nothing: the value stays unknown, never wrong.
#include <algorithm>
#include <cmath>
#include <limits>

#include "frontend/onnx/onnx_constants.hpp"
#include "frontend/onnx/onnx_kernels.hpp"

namespace lightcode::frontend::onnx_detail {
namespace {

using ::onnx::TensorProto;

Constant scalar_int(int32_t type, int64_t v, Dims dims = {}) {
  Constant c;
  c.elem_type = type;
  c.dims = std::move(dims);
  c.ints = {v};
  return c;
}

const ::onnx::AttributeProto* attribute(const ::onnx::NodeProto& node, const char* name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t int_attribute(const ::onnx::NodeProto& node, const char* name, int64_t fallback) {
  const auto* a = attribute(node, name);
  return a && a->type() == ::onnx::AttributeProto::INT ? a->i() : fallback;
}

std::optional<Dims> ints_attribute(const ::onnx::NodeProto& node, const char* name) {
  const auto* a = attribute(node, name);
  if (!a || a->type() != ::onnx::AttributeProto::INTS) return std::nullopt;
  return Dims(a->ints().begin(), a->ints().end());
}

// A 1-D integer operand (axes, shape, starts) from input `i`, or from attribute `name` when
// the input is absent (older opsets).
std::optional<Dims> operand(const ::onnx::NodeProto& node, const std::vector<const Constant*>& in,
                            size_t i, const char* name) {
  if (i < in.size() && in[i]) {
    if (!in[i]->integral() || in[i]->dims.size() > 1) return std::nullopt;
    return in[i]->ints;
  }
  if (i < static_cast<size_t>(node.input_size()) && !node.input(static_cast<int>(i)).empty())
    return std::nullopt;
  return name ? ints_attribute(node, name) : std::nullopt;
}

// The same elements under new dims (Reshape, Unsqueeze, Squeeze, Flatten).
std::optional<std::vector<Constant>> reshaped(const Constant& x, Dims dims) {
  if (fold_elements(dims) != x.size()) return std::nullopt;
  Constant c = x;
  c.dims = std::move(dims);
  return std::vector<Constant>{std::move(c)};
}

std::optional<std::vector<Constant>> evaluate_op(const ::onnx::NodeProto& node,
                                                 const std::vector<const Constant*>& in,
                                                 const std::vector<const ::onnx::TypeProto*>& types,
                                                 int64_t opset) {
  const std::string& op = node.op_type();
  auto have = [&](size_t i) { return i < in.size() && in[i] != nullptr; };
  if (op == "Constant") {
    for (const auto& a : node.attribute()) {
      if (a.name() == "value" && a.has_t()) {
        auto c = constant_of(a.t());
        if (c) return std::vector<Constant>{std::move(*c)};
      } else if (a.name() == "value_int") {
        return std::vector<Constant>{scalar_int(TensorProto::INT64, a.i())};
      } else if (a.name() == "value_ints" && a.ints_size() <= kFoldElements) {
        Constant c;
        c.elem_type = TensorProto::INT64;
        c.dims = {a.ints_size()};
        c.ints.assign(a.ints().begin(), a.ints().end());
        return std::vector<Constant>{std::move(c)};
      } else if (a.name() == "value_float") {
        Constant c;
        c.elem_type = TensorProto::FLOAT;
        c.reals = {a.f()};
        return std::vector<Constant>{std::move(c)};
      } else if (a.name() == "value_floats" && a.floats_size() <= kFoldElements) {
        Constant c;
        c.elem_type = TensorProto::FLOAT;
        c.dims = {a.floats_size()};
        c.reals.assign(a.floats().begin(), a.floats().end());
        return std::vector<Constant>{std::move(c)};
      }
    }
    return std::nullopt;
  }
  if (op == "Shape" || op == "Size") {
    if (types.empty() || !types[0] || !types[0]->has_tensor_type() ||
        !types[0]->tensor_type().has_shape())
      return std::nullopt;
    Dims dims;
    for (const auto& d : types[0]->tensor_type().shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 0) return std::nullopt;
      dims.push_back(d.dim_value());
    }
    if (op == "Size") {
      int64_t n = 1;
      for (int64_t d : dims) {
        if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
      }
      return std::vector<Constant>{scalar_int(TensorProto::INT64, n)};
    }
    const auto rank = static_cast<int64_t>(dims.size());
    int64_t start = int_attribute(node, "start", 0), end = int_attribute(node, "end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, start, rank);
    Constant c;
    c.elem_type = TensorProto::INT64;
    c.ints.assign(dims.begin() + start, dims.begin() + end);
    c.dims = {end - start};
    return std::vector<Constant>{std::move(c)};
  }
  if (op == "ConstantOfShape") {
    if (!have(0) || !in[0]->integral() || in[0]->dims.size() != 1) return std::nullopt;
    const int64_t n = fold_elements(in[0]->ints);
    if (n < 0) return std::nullopt;
    Constant value = scalar_int(TensorProto::FLOAT, 0);
    value.ints.clear();
    value.reals = {0.0};
    if (const auto* a = attribute(node, "value"); a && a->has_t()) {
      auto v = constant_of(a->t());
      if (!v || v->size() != 1) return std::nullopt;
      value = std::move(*v);
    }
    Constant r;
    r.elem_type = value.elem_type;
    r.dims = in[0]->ints;
    if (r.integral())
      r.ints.assign(static_cast<size_t>(n), value.ints[0]);
    else
      r.reals.assign(static_cast<size_t>(n), value.reals[0]);
    return std::vector<Constant>{std::move(r)};
  }
  if (op == "Range") {
    if (!have(0) || !have(1) || !have(2)) return std::nullopt;
    const Constant& s = *in[0];
    if (s.size() != 1 || in[1]->size() != 1 || in[2]->size() != 1 ||
        in[1]->elem_type != s.elem_type || in[2]->elem_type != s.elem_type) {
      return std::nullopt;
    }
    const double start = real_at(s, 0), limit = real_at(*in[1], 0), delta = real_at(*in[2], 0);
    if (delta == 0.0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return std::nullopt;
    const double n = std::max(std::ceil((limit - start) / delta), 0.0);
    if (n > static_cast<double>(kFoldElements)) return std::nullopt;
    Constant r;
    r.elem_type = s.elem_type;
    r.dims = {static_cast<int64_t>(n)};
    for (int64_t i = 0; i < r.dims[0]; ++i) {
      if (r.integral())
        r.ints.push_back(s.ints[0] + i * in[2]->ints[0]);
      else
        r.reals.push_back(start + static_cast<double>(i) * delta);
    }
    return std::vector<Constant>{std::move(r)};
  }
  // The ops below read input 0.
  if (!have(0)) return std::nullopt;
  const Constant& x = *in[0];
  if (op == "Identity") return std::vector<Constant>{x};
  if (op == "Cast") return cast(x, int_attribute(node, "to", 0));
  if (op == "Reshape") {
    if (!have(1) || !in[1]->integral()) return std::nullopt;
    const auto dims = reshape_dims(x.dims, in[1]->ints, int_attribute(node, "allowzero", 0) != 0);
    return dims ? reshaped(x, *dims) : std::nullopt;
  }
  if (op == "Flatten") {
    int64_t axis = int_attribute(node, "axis", 1);
    if (axis < 0) axis += static_cast<int64_t>(x.dims.size());
    if (axis < 0 || axis > static_cast<int64_t>(x.dims.size())) return std::nullopt;
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= x.dims[static_cast<size_t>(i)];
    return reshaped(x, {outer, outer == 0 ? 0 : x.size() / outer});
  }
  if (op == "Unsqueeze" || op == "Squeeze") {
    const auto axes = operand(node, in, 1, opset < 13 ? "axes" : nullptr);
    Dims dims = x.dims;
    if (op == "Unsqueeze") {
      if (!axes) return std::nullopt;
      const size_t rank = dims.size() + axes->size();
      std::vector<bool> inserted(rank, false);
      for (int64_t a : *axes) {
        if (!normalise_axis(a, rank) || inserted[static_cast<size_t>(a)]) return std::nullopt;
        inserted[static_cast<size_t>(a)] = true;
      }
      Dims out;
      size_t from = 0;
      for (size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : dims[from++]);
      return reshaped(x, out);
    }
    Dims out;
    std::vector<bool> drop(dims.size(), false);
    if (axes && !axes->empty()) {
      for (int64_t a : *axes) {
        if (!normalise_axis(a, dims.size()) || dims[static_cast<size_t>(a)] != 1)
          return std::nullopt;
        drop[static_cast<size_t>(a)] = true;
      }
    } else {
      for (size_t i = 0; i < dims.size(); ++i) drop[i] = dims[i] == 1;
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      if (!drop[i]) out.push_back(dims[i]);
    }
    return reshaped(x, out);
  }
  if (op == "Gather") {
    if (!have(1)) return std::nullopt;
    return gather(x, *in[1], int_attribute(node, "axis", 0));
  }
  if (op == "Concat") {
    for (size_t i = 0; i < in.size(); ++i) {
      if (!have(i)) return std::nullopt;
    }
    return concat(in, int_attribute(node, "axis", 0));
  }
  if (op == "Slice") {
    if (opset < 10) {
      const auto starts = ints_attribute(node, "starts"), ends = ints_attribute(node, "ends");
      if (!starts || !ends) return std::nullopt;
      return slice(x, *starts, *ends, ints_attribute(node, "axes"), std::nullopt);
    }
    const auto starts = operand(node, in, 1, nullptr), ends = operand(node, in, 2, nullptr);
    if (!starts || !ends) return std::nullopt;
    const bool has_axes = node.input_size() > 3 && !node.input(3).empty();
    const bool has_steps = node.input_size() > 4 && !node.input(4).empty();
    std::optional<Dims> axes, steps;
    if (has_axes && !(axes = operand(node, in, 3, nullptr))) return std::nullopt;
    if (has_steps && !(steps = operand(node, in, 4, nullptr))) return std::nullopt;
    return slice(x, *starts, *ends, axes, steps);
  }
  if (op == "Expand") {
    if (!have(1) || !in[1]->integral()) return std::nullopt;
    return expand(x, in[1]->ints);
  }
  if (op == "Where" || op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Min" ||
      op == "Max" || op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
      op == "GreaterOrEqual" || op == "And" || op == "Or" || op == "Not" || op == "Neg" ||
      op == "Abs" || op == "Floor" || op == "Ceil" || op == "Sqrt") {
    const size_t arity = op == "Where" ? 3
                         : (op == "Not" || op == "Neg" || op == "Abs" || op == "Floor" ||
                            op == "Ceil" || op == "Sqrt")
                             ? 1
                             : 2;
    if (in.size() != arity) return std::nullopt;
    for (size_t i = 0; i < arity; ++i) {
      if (!have(i)) return std::nullopt;
    }
    return elementwise(op, in);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<Constant>> evaluate(const ::onnx::NodeProto& node,
                                              const std::vector<const Constant*>& inputs,
                                              const std::vector<const ::onnx::TypeProto*>& types) {
  // Slice and Squeeze/Unsqueeze changed from attributes to inputs (opsets 10 and 13): an
  // operand input present means the newer form, whatever the opset says.
  const bool operands_are_inputs = node.input_size() > 1;
  return evaluate_op(node, inputs, types, operands_are_inputs ? 13 : 1);
}

}  // namespace lightcode::frontend::onnx_detail
