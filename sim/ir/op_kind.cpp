#include "sim/ir/op_kind.hpp"

#include <array>
#include <cctype>

namespace lightcode::ir {
namespace {
constexpr std::array<std::string_view, kOpKindCount> kNames{
    "memory",  "nop",      "add",       "subtract", "multiply", "divide",      "sqrt",
    "rsqrt",   "power",    "transpose", "negative", "cast",     "equal",       "relu",
    "tanh",    "sigmoid",  "softmax",   "less",     "take",     "where",       "erf",
    "slice",   "concatenate", "mean",   "dense",    "matmul",   "pack",        "split",
    "exp",     "max",      "sum",       "reshape",  "all_reduce", "all_gather", "reduce_scatter", "send_recv", "other",    "split_sram",  "matrix_matrix",
    "merge_sram", "start"};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}
}  // namespace

std::string_view op_kind_name(OpKind k) { return kNames[static_cast<size_t>(k)]; }

OpKind parse_op_kind(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name && static_cast<OpKind>(i) != OpKind::other) return static_cast<OpKind>(i);
  }
  return OpKind::other;
}

std::string_view kind_from_func_name(std::string_view func_name) {
  // Walk the `_`-separated parts from the end; the first non-numeric, non-empty one wins.
  size_t end = func_name.size();
  while (end > 0) {
    const size_t start = func_name.rfind('_', end - 1);
    const size_t from = start == std::string_view::npos ? 0 : start + 1;
    const std::string_view part = func_name.substr(from, end - from);
    if (!part.empty() && !all_digits(part)) return part;
    if (start == std::string_view::npos) break;
    end = start;
  }
  return func_name;
}

}  // namespace lightcode::ir
