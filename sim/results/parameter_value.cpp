#include "sim/results/parameter_value.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lightcode::results {

ParameterKind parameter_kind(const std::string& value) {
  // Plain spellings only: no leading space or '+' (strtod and strtoll would skip them).
  if (value.empty() || value.size() > 64 || !(std::isdigit(static_cast<unsigned char>(value[0])) ||
                                              value[0] == '-' || value[0] == '.')) {
    return ParameterKind::text;
  }
  const char* begin = value.c_str();
  char* end = nullptr;
  errno = 0;
  std::strtoll(begin, &end, 10);
  if (*end == '\0' && errno == 0 && end != begin) return ParameterKind::integer;
  errno = 0;
  const double real = std::strtod(begin, &end);
  // strtod also takes "inf", "nan" and hex floats: only finite decimal numbers count.
  const bool decimal = value.find_first_of("xXnN") == std::string::npos;
  if (*end == '\0' && end != begin && std::isfinite(real) && decimal) return ParameterKind::real;
  return ParameterKind::text;
}

int64_t parameter_integer(const std::string& value) { return std::strtoll(value.c_str(), nullptr, 10); }

double parameter_real(const std::string& value) { return std::strtod(value.c_str(), nullptr); }

std::string canonical_real(double value) {
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace lightcode::results
