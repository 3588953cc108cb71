#pragma once
// "Did you mean": the known name closest to a mistyped one, by edit distance (insertions,
// deletions, substitutions). Config keys (config.cpp) and command names (sim/app/main.cpp) use
// it, so both suggest the same way.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lightcode {

// Levenshtein distance between `a` and `b`.
size_t edit_distance(std::string_view a, std::string_view b);

// The first of `names` at the least distance from `word` when that distance is at most
// `most` (2: a typo, not another word); "" otherwise.
std::string closest_name(std::string_view word, const std::vector<std::string>& names, size_t most = 2);

}  // namespace lightcode
