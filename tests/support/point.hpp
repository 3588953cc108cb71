#pragma once
// Simulation points for tests: a built-in model at a prompt length on a shipped system
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
  p.fidelity = Fidelity::analytical;
  return p;
}

// A generate point: a `prompt`-token prefill then `new_tokens` - 1 decode steps, analytical.
inline sweep::PointSpec generate_point(const std::string& model, int64_t prompt, int64_t new_tokens,
                                       const std::string& system_file) {
  sweep::PointSpec p = analytical_point(model, prompt, system_file);
  p.stage = Stage::generate;
  p.new_tokens = new_tokens;
  return p;
}

}  // namespace lightcode::test
