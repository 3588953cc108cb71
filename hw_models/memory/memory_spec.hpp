#pragma once
// Memory spec (family: memory): HBM, on-chip SRAM, or a unit-local buffer.
//   level: hbm | sram | buffer
//   capacity: 80 GB      bandwidth: 3.35 TB/s      clock: 6 GHz (sram bookkeeping ops)
//   read_energy: 40 pJ   write_energy: 12 pJ      per 32-bit number, as the original counts
//   preload_energy: 160 pJ   per number, once, to fill HBM with a graph input (default 0)
//   op_energy: 1 pJ          per sram_split / sram_merge bookkeeping op (default 1 pJ)
//   static_power: 0 W
#include <string>
#include <vector>

#include "sim/core/config.hpp"

namespace lightcode::hw {

enum class MemoryLevel { hbm, sram, buffer };

struct MemorySpec {
  std::string name;
  MemoryLevel level = MemoryLevel::sram;
  double capacity_bytes = 0.0;  // 0 = unlimited
  double bandwidth = 0.0;       // B/s; 0 = unlimited
  double clock_hz = 6e9;
  double read_energy_j = 0.0;   // per 32-bit number
  double write_energy_j = 0.0;  // per 32-bit number
  double preload_energy_j = 0.0;  // per number of a graph input held in this memory
  double op_energy_j = 1e-12;     // per bookkeeping op (the original: 1 pJ)
  double static_power_w = 0.0;
};

MemorySpec parse_memory_spec(const ConfigNode& node);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> memory_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
