#include "frontend/onnx/onnx_constants.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace lightcode::frontend::onnx_detail {
namespace {

using ::onnx::TensorProto;

// Bytes of one element in raw_data, for the types evaluated here (0: not evaluated).
size_t raw_width(int32_t t) {
  switch (t) {
    case TensorProto::INT8:
    case TensorProto::UINT8:
    case TensorProto::BOOL:
      return 1;
    case TensorProto::INT16:
    case TensorProto::UINT16:
      return 2;
    case TensorProto::INT32:
    case TensorProto::UINT32:
    case TensorProto::FLOAT:
      return 4;
    case TensorProto::INT64:
    case TensorProto::UINT64:
    case TensorProto::DOUBLE:
      return 8;
    default:
      return 0;
  }
}

int64_t from_raw(const std::string& raw, size_t i, int32_t t) {
  const char* p = raw.data() + i * raw_width(t);
  switch (t) {
    case TensorProto::INT8: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return v;
    }
    case TensorProto::UINT8:
    case TensorProto::BOOL: {
      uint8_t v;
      std::memcpy(&v, p, 1);
      return v;
    }
    case TensorProto::INT16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case TensorProto::UINT16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case TensorProto::INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TensorProto::UINT32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }  // INT64, UINT64 (as stored)
  }
}

double real_from_raw(const std::string& raw, size_t i, int32_t t) {
  if (t == TensorProto::FLOAT) {
    float v;
    std::memcpy(&v, raw.data() + i * 4, 4);
    return v;
  }
  double v;
  std::memcpy(&v, raw.data() + i * 8, 8);
  return v;
}

}  // namespace

bool integral_type(int32_t t) {
  switch (t) {
    case TensorProto::INT8:
    case TensorProto::INT16:
    case TensorProto::INT32:
    case TensorProto::INT64:
    case TensorProto::UINT8:
    case TensorProto::UINT16:
    case TensorProto::UINT32:
    case TensorProto::UINT64:
    case TensorProto::BOOL:
      return true;
    default:
      return false;
  }
}

bool real_type(int32_t t) {
  return t == TensorProto::FLOAT || t == TensorProto::DOUBLE;
}

int64_t fold_elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d == 0) return 0;
    if (n > kFoldElements / d) return -1;
    n *= d;
  }
  return n;
}

bool Constant::integral() const {
  return integral_type(elem_type);
}

int64_t Constant::size() const {
  return fold_elements(dims);
}

std::optional<Constant> constant_of(const TensorProto& t) {
  if (t.data_location() == TensorProto::EXTERNAL) return std::nullopt;
  Constant c;
  c.elem_type = t.data_type();
  c.dims.assign(t.dims().begin(), t.dims().end());
  const int64_t n = fold_elements(c.dims);
  const size_t width = raw_width(c.elem_type);
  if (n < 0 || width == 0) return std::nullopt;
  const auto un = static_cast<size_t>(n);
  if (t.has_raw_data()) {
    if (t.raw_data().size() != un * width) return std::nullopt;
    for (size_t i = 0; i < un; ++i) {
      if (c.integral())
        c.ints.push_back(from_raw(t.raw_data(), i, c.elem_type));
      else
        c.reals.push_back(real_from_raw(t.raw_data(), i, c.elem_type));
    }
    return c;
  }
  switch (c.elem_type) {
    case TensorProto::INT64:
      c.ints.assign(t.int64_data().begin(), t.int64_data().end());
      break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      for (uint64_t v : t.uint64_data()) c.ints.push_back(static_cast<int64_t>(v));
      break;
    case TensorProto::FLOAT:
      c.reals.assign(t.float_data().begin(), t.float_data().end());
      break;
    case TensorProto::DOUBLE:
      c.reals.assign(t.double_data().begin(), t.double_data().end());
      break;
    default:  // INT8, INT16, INT32, UINT8, UINT16, BOOL live in int32_data
      c.ints.assign(t.int32_data().begin(), t.int32_data().end());
      break;
  }
  if ((c.integral() ? c.ints.size() : c.reals.size()) != un) return std::nullopt;
  return c;
}

TensorProto to_tensor(const Constant& c) {
  TensorProto t;
  t.set_data_type(c.elem_type);
  for (int64_t d : c.dims) t.add_dims(d);
  switch (c.elem_type) {
    case TensorProto::INT64:
      for (int64_t v : c.ints) t.add_int64_data(v);
      break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      for (int64_t v : c.ints) t.add_uint64_data(static_cast<uint64_t>(v));
      break;
    case TensorProto::FLOAT:
      for (double v : c.reals) t.add_float_data(static_cast<float>(v));
      break;
    case TensorProto::DOUBLE:
      for (double v : c.reals) t.add_double_data(v);
      break;
    default:
      for (int64_t v : c.ints) t.add_int32_data(static_cast<int32_t>(v));
      break;
  }
  return t;
}

}  // namespace lightcode::frontend::onnx_detail
