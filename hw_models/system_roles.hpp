#pragma once
// Which unit of a system plays each role (roles.hpp), resolved once when the system loads.
// A unit can play a role when its model says so (Capabilities::roles: an SRAM can stage and
// relay, an HBM can hold resident inputs, the lightcode profile's start unit starts tasks).
// Per role:
//   - the system file's `role:` names the unit (it must be able to play it), else
//   - the one unit able to play it, else
//   - relay: the staging memory;
//   - several able: an error listing them, asking for `role: {<role>: <unit>}`;
//   - none able: staging and resident are needed by every system, an error naming the file
//     and the memory to add; start is needed under a profile with start tasks only.
// The `role:` keys exist only where the choice is the user's (several memories of a level);
// where the tasks start is the profile's, so `start` is no key.
#include <array>
#include <optional>
#include <vector>

#include "hw_models/roles.hpp"
#include "hw_models/transfer_model.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

class Profile;
struct UnitInfo;

// The keys of a system file's `role:`.
const ParamTable& role_params();

using RoleUnits = std::array<UnitType, kRoles.size()>;  // by Role; -1 where none plays it

// `role` is the system file's `role:` (nullopt when absent); errors are placed in `root`'s
// file. Precondition: every unit has its model.
RoleUnits resolve_roles(const std::vector<UnitInfo>& units, const std::optional<Params>& role,
                        const ConfigNode& root, const Profile& profile);

}  // namespace lightcode::hw
