#pragma once
// Checks, before the first point runs, every file the points of a scenario will read: each
// distinct system (with the point's sweep overrides, for its profile, hardware files it
// inherits included) and each distinct model (a built-in config, or a TVM graph). Every
// problem is reported once, however many points share it, and all of them at once: a typo in
// a system file is one line before anything runs, not a failure per point after the sweep
// has started. Throws lightcode::Error listing the problems, one per line.
#include <vector>

#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

void validate_point_inputs(const std::vector<PointSpec>& points);

}  // namespace lightcode::sweep
