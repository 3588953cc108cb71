#include "sim/ir/dtype.hpp"

#include <array>

namespace lightcode::ir {
namespace {
struct DTypeInfo {
  std::string_view name;
  int bytes;
};
constexpr std::array<DTypeInfo, 11> kInfo{{{"float32", 4},
                                           {"float16", 2},
                                           {"bfloat16", 2},
                                           {"float64", 8},
                                           {"float8", 1},
                                           {"int64", 8},
                                           {"int32", 4},
                                           {"int16", 2},
                                           {"int8", 1},
                                           {"uint8", 1},
                                           {"uint1", 1}}};
}  // namespace

std::string_view dtype_name(DType t) { return kInfo[static_cast<size_t>(t)].name; }
int dtype_bytes(DType t) { return kInfo[static_cast<size_t>(t)].bytes; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i < kInfo.size(); ++i) {
    if (kInfo[i].name == name) return static_cast<DType>(i);
  }
  if (name == "bool") return DType::uint1;
  return std::nullopt;
}

}  // namespace lightcode::ir
