#include "sim/app/format.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace lightcode::app {

std::string grouped(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string engineering(double v) {
  static constexpr std::array<const char*, 6> kPrefix{"", "k", "M", "G", "T", "P"};
  size_t p = 0;
  double x = v;
  while (std::fabs(x) >= 1000.0 && p + 1 < kPrefix.size()) {
    x /= 1000.0;
    ++p;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, p ? "%.1f %s" : "%.0f%s", x, kPrefix[p]);
  return buf;
}

std::string human_bytes(int64_t bytes) {
  static constexpr std::array<const char*, 5> kUnit{"B", "KiB", "MiB", "GiB", "TiB"};
  double x = static_cast<double>(bytes);
  size_t u = 0;
  while (x >= 1024.0 && u + 1 < kUnit.size()) {
    x /= 1024.0;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", x, kUnit[u]);
  return buf;
}

}  // namespace lightcode::app
