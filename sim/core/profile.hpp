#pragma once
// Which arithmetic and scheduling the simulator uses. `lightcode` reproduces the original's
// figures quirks included (reference/LIGHTCODE_MODEL.md); `standard` (the default) is
// physically sound: transfer time grows with bytes, every parent's edge counts, the GPU has
// real per-op models, static power can be set.
#include <optional>
#include <string_view>

namespace lightcode {

enum class Profile { standard, lightcode };

inline std::string_view profile_name(Profile p) { return p == Profile::lightcode ? "lightcode" : "default"; }
inline std::optional<Profile> parse_profile(std::string_view s) {
  if (s == "lightcode") return Profile::lightcode;
  if (s == "default" || s == "standard") return Profile::standard;
  return std::nullopt;
}

}  // namespace lightcode
