#pragma once
// Which arithmetic and scheduling the simulator uses. `lightcode` reproduces the original's
// figures quirks included (reference/LIGHTCODE_MODEL.md); `standard` (the default) is
// physically sound: transfer time grows with bytes, every parent's edge counts, the GPU has
// real per-op models, static power can be set.
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace lightcode {

enum class Profile { standard, lightcode };

// Name and one-line description of every profile, for `lightcode list`.
inline std::vector<std::pair<std::string_view, std::string_view>> profile_descriptions() {
  return {{"default", "physically sound: transfer time grows with bytes, every input edge counts, CTA waves "
                      "on the GPU, DAC/ADC rates, static power"},
          {"lightcode", "the original LightCode's arithmetic and scheduler, quirks included "
                        "(docs/LIGHTCODE_PROFILE.md)"}};
}
// The scheduling policy a profile uses unless a scenario names one (sim/sched/policy.hpp).
inline std::string_view default_scheduler(Profile p) { return p == Profile::lightcode ? "lightcode" : "list"; }
inline std::string_view profile_name(Profile p) { return p == Profile::lightcode ? "lightcode" : "default"; }
inline std::optional<Profile> parse_profile(std::string_view s) {
  if (s == "lightcode") return Profile::lightcode;
  if (s == "default" || s == "standard") return Profile::standard;
  return std::nullopt;
}

}  // namespace lightcode
