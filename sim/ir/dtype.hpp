#pragma once
// Element types of tensors, spelled as TVM's `dltype` strings ("float32", "uint1", ...).
#include <cstdint>
#include <optional>
#include <string_view>

namespace lightcode::ir {

enum class DType : uint8_t {
  float32, float16, bfloat16, float64, float8, int64, int32, int16, int8, uint8, uint1
};

std::string_view dtype_name(DType t);
std::optional<DType> parse_dtype(std::string_view name);
// Bytes one element occupies in memory; TVM stores uint1 (bool) in a byte.
int dtype_bytes(DType t);
// The bits of an integer type's values (int8 -> 8, uint1 -> 1); none for a floating-point type.
std::optional<int> integer_bits(DType t);

}  // namespace lightcode::ir
