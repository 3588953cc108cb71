#include "sim/core/suggest.hpp"

#include <algorithm>

namespace lightcode {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_name(std::string_view word, const std::vector<std::string>& names, size_t most) {
  std::string best;
  size_t best_d = most + 1;
  for (const std::string& name : names) {
    const size_t d = edit_distance(word, name);
    if (d < best_d) {
      best_d = d;
      best = name;
    }
  }
  return best;
}

}  // namespace lightcode
