#pragma once
// What a file given as a system is, when it is not a system for the profile in use, so that
// the error says what to use instead of what failed deep inside:
//   - a hardware file (configs/hardware/*.yaml: a `family:`, no `units:`) names a system that
//     uses it (the simplest one found in ../systems/ beside it, top folder first);
//   - a system file made for another profile (it loads under that profile, not this one)
//     names its counterpart for this profile: the file of the same name in this profile's
//     folder (the profile's systems_folder(): configs/systems/ for default,
//     configs/systems/lightcode/ for lightcode), or says where to write one. The original
//     error follows.
#include "hw_models/profile.hpp"
#include "hw_models/registry.hpp"
#include "sim/core/config.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {

// Throws lightcode::Error at `family:` when `root` is a hardware file; else does nothing.
void reject_hardware_file(const ConfigNode& root, const Registry& registry);

// The error for `root`, which failed under `used` with `error` and loads under `made_for`.
Error made_for_other_profile(const ConfigNode& root, const Profile& used, const Profile& made_for,
                             const Error& error);

}  // namespace lightcode::hw
