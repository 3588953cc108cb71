#include "frontend/onnx/onnx_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lightcode::frontend::onnx_detail {

using ::onnx::TensorProto;

double real_at(const Constant& c, size_t e) {
  return c.integral() ? static_cast<double>(c.ints[e]) : c.reals[e];
}

std::optional<Dims> broadcast(const std::vector<const Dims*>& shapes) {
  size_t rank = 0;
  for (const Dims* s : shapes) rank = std::max(rank, s->size());
  Dims out(rank, 1);
  for (const Dims* s : shapes) {
    const size_t shift = rank - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      const int64_t d = (*s)[i];
      int64_t& o = out[shift + i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

std::vector<size_t> broadcast_index(const Dims& dims, const Dims& out) {
  const size_t rank = out.size();
  Dims stride(rank, 0);
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    const size_t o = rank - dims.size() + i;
    stride[o] = dims[i] == 1 ? 0 : s;
    s *= dims[i];
  }
  const int64_t n = fold_elements(out);
  std::vector<size_t> index(static_cast<size_t>(std::max<int64_t>(n, 0)));
  Dims at(rank, 0);
  for (size_t e = 0; e < index.size(); ++e) {
    int64_t flat = 0;
    for (size_t i = 0; i < rank; ++i) flat += at[i] * stride[i];
    index[e] = static_cast<size_t>(flat);
    for (size_t i = rank; i-- > 0;) {
      if (++at[i] < out[i]) break;
      at[i] = 0;
    }
  }
  return index;
}

bool normalise_axis(int64_t& axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < 0) axis += r;
  return axis >= 0 && axis < r;
}

std::optional<std::vector<Constant>> elementwise(const std::string& op,
                                                 const std::vector<const Constant*>& in) {
  std::vector<const Dims*> shapes;
  for (const Constant* c : in) shapes.push_back(&c->dims);
  const auto out_dims = broadcast(shapes);
  if (!out_dims || fold_elements(*out_dims) < 0) return std::nullopt;
  std::vector<std::vector<size_t>> index;
  for (const Constant* c : in) index.push_back(broadcast_index(c->dims, *out_dims));
  const size_t n = static_cast<size_t>(fold_elements(*out_dims));
  Constant r;
  r.dims = *out_dims;
  if (op == "Where") {
    const Constant& cond = *in[0];
    const Constant& a = *in[1];
    const Constant& b = *in[2];
    if (!cond.integral() || a.elem_type != b.elem_type) return std::nullopt;
    r.elem_type = a.elem_type;
    for (size_t e = 0; e < n; ++e) {
      const bool pick = cond.ints[index[0][e]] != 0;
      const Constant& src = pick ? a : b;
      const size_t at = index[pick ? 1 : 2][e];
      if (r.integral())
        r.ints.push_back(src.ints[at]);
      else
        r.reals.push_back(src.reals[at]);
    }
    return std::vector<Constant>{std::move(r)};
  }
  const Constant& a = *in[0];
  const bool unary = in.size() == 1;
  const Constant& b = unary ? a : *in[1];
  if (a.elem_type != b.elem_type) return std::nullopt;
  const bool compare = op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
                       op == "GreaterOrEqual";
  r.elem_type = compare ? TensorProto::BOOL : a.elem_type;
  for (size_t e = 0; e < n; ++e) {
    const size_t i = index[0][e];
    const size_t j = unary ? i : index[1][e];
    if (a.integral()) {
      const int64_t x = a.ints[i];
      const int64_t y = b.ints[j];
      int64_t v = 0;
      if (op == "Add") {
        if (__builtin_add_overflow(x, y, &v)) return std::nullopt;
      } else if (op == "Sub") {
        if (__builtin_sub_overflow(x, y, &v)) return std::nullopt;
      } else if (op == "Mul") {
        if (__builtin_mul_overflow(x, y, &v)) return std::nullopt;
      } else if (op == "Div") {
        if (y == 0 || (x == std::numeric_limits<int64_t>::min() && y == -1)) return std::nullopt;
        v = x / y;  // C++ truncation, as onnxruntime computes integer Div
      } else if (op == "Min")
        v = std::min(x, y);
      else if (op == "Max")
        v = std::max(x, y);
      else if (op == "Equal")
        v = x == y;
      else if (op == "Less")
        v = x < y;
      else if (op == "Greater")
        v = x > y;
      else if (op == "LessOrEqual")
        v = x <= y;
      else if (op == "GreaterOrEqual")
        v = x >= y;
      else if (op == "And")
        v = (x != 0) && (y != 0);
      else if (op == "Or")
        v = (x != 0) || (y != 0);
      else if (op == "Not")
        v = x == 0;
      else if (op == "Neg") {
        if (__builtin_sub_overflow(int64_t{0}, x, &v)) return std::nullopt;
      } else if (op == "Abs") {
        if (x == std::numeric_limits<int64_t>::min()) return std::nullopt;
        v = x < 0 ? -x : x;
      } else
        return std::nullopt;
      r.ints.push_back(v);
      continue;
    }
    const double x = a.reals[i];
    const double y = b.reals[j];
    double v = 0;
    if (op == "Add")
      v = x + y;
    else if (op == "Sub")
      v = x - y;
    else if (op == "Mul")
      v = x * y;
    else if (op == "Div")
      v = x / y;
    else if (op == "Min")
      v = std::min(x, y);
    else if (op == "Max")
      v = std::max(x, y);
    else if (op == "Neg")
      v = -x;
    else if (op == "Abs")
      v = std::fabs(x);
    else if (op == "Floor")
      v = std::floor(x);
    else if (op == "Ceil")
      v = std::ceil(x);
    else if (op == "Sqrt")
      v = std::sqrt(x);
    else if (compare) {
      const bool t = op == "Equal"         ? x == y
                     : op == "Less"        ? x < y
                     : op == "Greater"     ? x > y
                     : op == "LessOrEqual" ? x <= y
                                           : x >= y;
      r.ints.push_back(t);
      continue;
    } else {
      return std::nullopt;
    }
    r.reals.push_back(v);
  }
  return std::vector<Constant>{std::move(r)};
}

std::optional<std::vector<Constant>> cast(const Constant& x, int64_t to) {
  Constant r;
  r.elem_type = static_cast<int32_t>(to);
  r.dims = x.dims;
  if (integral_type(r.elem_type)) {
    for (size_t e = 0; e < static_cast<size_t>(x.size()); ++e) {
      if (x.integral()) {
        r.ints.push_back(r.elem_type == TensorProto::BOOL ? x.ints[e] != 0 : x.ints[e]);
        continue;
      }
      const double v = x.reals[e];
      if (!std::isfinite(v) || std::fabs(v) >= 9.2e18) return std::nullopt;
      r.ints.push_back(r.elem_type == TensorProto::BOOL ? v != 0.0
                                                        : static_cast<int64_t>(v));  // truncation
    }
  } else if (real_type(r.elem_type)) {
    for (size_t e = 0; e < static_cast<size_t>(x.size()); ++e) r.reals.push_back(real_at(x, e));
  } else {
    return std::nullopt;
  }
  return std::vector<Constant>{std::move(r)};
}

// Gather along `axis`: data.dims[:axis] + indices.dims + data.dims[axis+1:].
std::optional<std::vector<Constant>> gather(const Constant& data, const Constant& idx,
                                            int64_t axis) {
  if (!idx.integral() || !normalise_axis(axis, data.dims.size())) return std::nullopt;
  const auto a = static_cast<size_t>(axis);
  Dims out(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(a));
  out.insert(out.end(), idx.dims.begin(), idx.dims.end());
  out.insert(out.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(a) + 1, data.dims.end());
  if (fold_elements(out) < 0) return std::nullopt;
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= data.dims[i];
  for (size_t i = a + 1; i < data.dims.size(); ++i) inner *= data.dims[i];
  const int64_t extent = data.dims[a];
  Constant r;
  r.elem_type = data.elem_type;
  r.dims = out;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k : idx.ints) {
      if (k < 0) k += extent;
      if (k < 0 || k >= extent) return std::nullopt;
      for (int64_t i = 0; i < inner; ++i) {
        const auto at = static_cast<size_t>((o * extent + k) * inner + i);
        if (data.integral())
          r.ints.push_back(data.ints[at]);
        else
          r.reals.push_back(data.reals[at]);
      }
    }
  }
  return std::vector<Constant>{std::move(r)};
}

std::optional<std::vector<Constant>> slice(const Constant& x, const Dims& starts, const Dims& ends,
                                           std::optional<Dims> axes, std::optional<Dims> steps) {
  const size_t rank = x.dims.size();
  if (!axes) {
    axes = Dims();
    for (size_t i = 0; i < starts.size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!steps) steps = Dims(starts.size(), 1);
  if (ends.size() != starts.size() || axes->size() != starts.size() ||
      steps->size() != starts.size()) {
    return std::nullopt;
  }
  Dims begin(rank, 0), step(rank, 1), out = x.dims;
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t axis = (*axes)[k];
    if (!normalise_axis(axis, rank) || (*steps)[k] == 0) return std::nullopt;
    const auto a = static_cast<size_t>(axis);
    const int64_t d = x.dims[a];
    const int64_t s = (*steps)[k];
    if (s == std::numeric_limits<int64_t>::min()) return std::nullopt;
    if (d == 0) {
      out[a] = 0;
      continue;
    }
    // ONNX's rule: negative positions count from the end; then a forward slice clamps both to
    // [0, d], a backward one its start to [0, d - 1] and its end to [-1, d - 1].
    int64_t b = starts[k] < 0 ? std::max<int64_t>(starts[k], -d - 1) + d : starts[k];
    int64_t e = ends[k] < 0 ? std::max<int64_t>(ends[k], -d - 1) + d : ends[k];
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
    } else {
      b = std::clamp<int64_t>(b, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
    }
    const int64_t n =
        s > 0 ? (e > b ? (e - b - 1) / s + 1 : 0) : (b > e ? (b - e - 1) / (-s) + 1 : 0);
    begin[a] = b;
    step[a] = s;
    out[a] = n;
  }
  const int64_t n = fold_elements(out);
  if (n < 0) return std::nullopt;
  Constant r;
  r.elem_type = x.elem_type;
  r.dims = out;
  Dims stride(rank, 1);
  for (size_t i = rank; i-- > 1;) stride[i - 1] = stride[i] * x.dims[i];
  Dims at(rank, 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t flat = 0;
    for (size_t i = 0; i < rank; ++i) flat += (begin[i] + at[i] * step[i]) * stride[i];
    const auto f = static_cast<size_t>(flat);
    if (x.integral())
      r.ints.push_back(x.ints[f]);
    else
      r.reals.push_back(x.reals[f]);
    for (size_t i = rank; i-- > 0;) {
      if (++at[i] < out[i]) break;
      at[i] = 0;
    }
  }
  return std::vector<Constant>{std::move(r)};
}

std::optional<std::vector<Constant>> concat(const std::vector<const Constant*>& in, int64_t axis) {
  if (in.empty()) return std::nullopt;
  const Constant& first = *in.front();
  if (!normalise_axis(axis, first.dims.size())) return std::nullopt;
  const auto a = static_cast<size_t>(axis);
  Dims out = first.dims;
  out[a] = 0;
  for (const Constant* c : in) {
    if (c->elem_type != first.elem_type || c->dims.size() != first.dims.size()) return std::nullopt;
    for (size_t i = 0; i < out.size(); ++i) {
      if (i != a && c->dims[i] != first.dims[i]) return std::nullopt;
    }
    out[a] += c->dims[a];
  }
  if (fold_elements(out) < 0) return std::nullopt;
  int64_t outer = 1;
  for (size_t i = 0; i < a; ++i) outer *= out[i];
  Constant r;
  r.elem_type = first.elem_type;
  r.dims = out;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Constant* c : in) {
      const int64_t block = c->size() / std::max<int64_t>(outer, 1);
      for (int64_t i = 0; i < block; ++i) {
        const auto at = static_cast<size_t>(o * block + i);
        if (r.integral())
          r.ints.push_back(c->ints[at]);
        else
          r.reals.push_back(c->reals[at]);
      }
    }
  }
  return std::vector<Constant>{std::move(r)};
}

std::optional<Dims> reshape_dims(const Dims& from, const Dims& shape, bool allow_zero) {
  Dims out;
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d == 0 && !allow_zero) {
      if (i >= from.size()) return std::nullopt;
      d = from[i];
    }
    if (d == -1) {
      if (infer >= 0) return std::nullopt;
      infer = static_cast<int>(i);
      out.push_back(1);
      continue;
    }
    if (d < 0) return std::nullopt;
    out.push_back(d);
    if (d > kFoldElements || (d > 0 && known > kFoldElements / d)) return std::nullopt;
    known *= d;
  }
  const int64_t total = fold_elements(from);
  if (total < 0) return std::nullopt;
  if (infer >= 0) {
    if (known == 0 || total % known != 0) return std::nullopt;
    out[static_cast<size_t>(infer)] = total / known;
  }
  return out;
}

std::optional<std::vector<Constant>> expand(const Constant& x, const Dims& shape) {
  const auto out = broadcast({&x.dims, &shape});
  if (!out || fold_elements(*out) < 0) return std::nullopt;
  Constant r;
  r.elem_type = x.elem_type;
  r.dims = *out;
  for (size_t e : broadcast_index(x.dims, *out)) {
    if (x.integral()) {
      r.ints.push_back(x.ints[e]);
    } else {
      r.reals.push_back(x.reals[e]);
    }
  }
  return std::vector<Constant>{std::move(r)};
}

}  // namespace lightcode::frontend::onnx_detail
