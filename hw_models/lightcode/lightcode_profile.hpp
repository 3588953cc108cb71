#pragma once
// The `lightcode` profile object (hw_models/profile.hpp), and the internal family of its
// `start` pseudo-unit (registered in register_all.cpp, never named in a config).
#include <memory>

#include "hw_models/profile.hpp"

namespace lightcode::hw {

inline constexpr const char* kStartFamily = "start";

std::unique_ptr<Profile> make_lightcode_profile();

}  // namespace lightcode::hw
