#pragma once
// A simulation point for tests: a built-in model at a prompt length on a shipped system
// (configs/systems/<file>), analytical fidelity, the default profile and time objective.
#include <cstdint>
#include <string>

#include "sim/sweep/scenario.hpp"
#include "tests/support/paths.hpp"

namespace lightcode::test {

inline sweep::PointSpec analytical_point(const std::string& model, int64_t length, const std::string& system_file) {
  sweep::PointSpec p;
  p.id = "p0";
  p.model = model;
  p.sequence_length = length;
  p.system = source_dir() + "/configs/systems/" + system_file;
  p.fidelity = "analytical";
  return p;
}

}  // namespace lightcode::test
