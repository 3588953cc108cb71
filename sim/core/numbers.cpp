#include "sim/core/numbers.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace lightcode {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

size_t digits(std::string_view s, size_t at) {
  size_t n = 0;
  while (at + n < s.size() && digit(s[at + n])) ++n;
  return n;
}

}  // namespace

size_t decimal_prefix(std::string_view s) {
  size_t at = 0;
  if (at < s.size() && (s[at] == '+' || s[at] == '-')) ++at;
  const size_t whole = digits(s, at);
  at += whole;
  size_t fraction = 0;
  if (at < s.size() && s[at] == '.') {
    fraction = digits(s, at + 1);
    if (whole + fraction > 0) at += 1 + fraction;
  }
  if (whole + fraction == 0) return 0;
  if (at < s.size() && (s[at] == 'e' || s[at] == 'E')) {
    size_t e = at + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    const size_t exponent = digits(s, e);
    if (exponent > 0) at = e + exponent;  // "1e" or "1e+" ends before the 'e'
  }
  return at;
}

std::optional<double> parse_decimal(std::string_view text) {
  if (text.empty() || decimal_prefix(text) != text.size()) return std::nullopt;
  const std::string buf(text);  // strtod needs a terminated buffer
  char* end = nullptr;
  const double v = std::strtod(buf.c_str(), &end);
  if (end != buf.c_str() + buf.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace lightcode
