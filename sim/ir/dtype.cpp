#include "sim/ir/dtype.hpp"

#include <array>

namespace lightcode::ir {
namespace {
struct DTypeInfo {
  std::string_view name;
  int bytes;
  int integer_bits;  // 0: a floating-point type
};
constexpr std::array<DTypeInfo, 11> kInfo{{{"float32", 4, 0},
                                           {"float16", 2, 0},
                                           {"bfloat16", 2, 0},
                                           {"float64", 8, 0},
                                           {"float8", 1, 0},
                                           {"int64", 8, 64},
                                           {"int32", 4, 32},
                                           {"int16", 2, 16},
                                           {"int8", 1, 8},
                                           {"uint8", 1, 8},
                                           {"uint1", 1, 1}}};
}  // namespace

std::string_view dtype_name(DType t) { return kInfo[static_cast<size_t>(t)].name; }
int dtype_bytes(DType t) { return kInfo[static_cast<size_t>(t)].bytes; }
std::optional<int> integer_bits(DType t) {
  const int bits = kInfo[static_cast<size_t>(t)].integer_bits;
  return bits > 0 ? std::optional<int>(bits) : std::nullopt;
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i < kInfo.size(); ++i) {
    if (kInfo[i].name == name) return static_cast<DType>(i);
  }
  if (name == "bool") return DType::uint1;
  return std::nullopt;
}

}  // namespace lightcode::ir
