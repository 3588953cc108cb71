#pragma once
// Memory spec (family: memory): HBM, on-chip SRAM, or a unit-local buffer. Every key is
// declared once in memory_params() (memory_spec.cpp) with its unit, default and meaning. What a
// model reads depends on the level (the default profile: HBM preload and read energy for the
// graph's inputs; SRAM clock, op energy and capacity for bookkeeping), so `read_energy` on an
// SRAM, say, is reported as set but unread. Energies are per 32-bit number, as the original
// counts.
#include <string>
#include <vector>

#include "hw_models/roles.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

enum class MemoryLevel { hbm, sram, buffer };

struct MemorySpec {
  std::string name;
  MemoryLevel level = MemoryLevel::sram;
  double capacity_bytes = 0.0;  // 0 = unlimited
  double clock_hz = 6e9;
  double read_energy_j = 0.0;   // per 32-bit number
  double preload_energy_j = 0.0;  // per number of a graph input held in this memory
  double op_energy_j = 1e-12;     // per bookkeeping op (the original: 1 pJ)
  double static_power_w = 0.0;
};

const ParamTable& memory_params();
// Reads `level`.
MemoryLevel memory_level(const Params& params);
// The roles of a system a memory of `level` can play (roles.hpp): an SRAM stages photonic
// operands and relays transfers between units without a direct link, an HBM holds the graph's
// resident inputs, a buffer plays none.
RoleSet memory_roles(MemoryLevel level);
// Reads `level` and the keys a model of that level uses: HBM read and preload energy; SRAM
// clock, op energy and capacity; static power. The lightcode profile's transfers read the
// read/write energies themselves.
MemorySpec parse_memory_spec(const Params& params);
MemorySpec parse_memory_spec(const ConfigNode& node);  // with a usage record of its own
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> memory_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
