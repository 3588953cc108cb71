#pragma once
// What the layers above hw_models/ need to know about a unit, asked of its model instead of
// its family's name (so that a new family is new files and a registration line):
//   photonic   its matrix products are optical MACs: counted as "possible photonic" in the
//              reports, expanded into one 2-D product per batch element on its cores (SRAM
//              split before, merge after), its DAC/ADC energy shown as conversion;
//   residence  where a task's outputs stay until their last consumer (the engine's memory
//              accounting): nowhere, SRAM (a PHU keeps nothing) or HBM;
//   role       which end of the original's fixed transfer table it is (lightcode profile);
//   category   which column of the energy breakdown its tasks' energy goes to;
//   clock_hz   the clock its cycles run at, 0 where it has none (cycle-counting rules);
//   capacity_bytes  what a memory can hold at once, 0 for unbounded (the engine's SRAM check);
//   roles      the roles of a system it can play (roles.hpp): a memory's follow from its level,
//              the lightcode profile's start unit plays `start`.
#include <cstdint>

#include "hw_models/roles.hpp"

namespace lightcode::hw {

enum class Residence : uint8_t { none, sram, hbm };
enum class TransferRole : uint8_t { cpu, gpu, phu, hbm, sram, start };
enum class EnergyCategory : uint8_t { compute, memory };

struct Capabilities {
  bool photonic = false;
  Residence residence = Residence::hbm;
  TransferRole role = TransferRole::cpu;
  EnergyCategory category = EnergyCategory::compute;
  double clock_hz = 0.0;
  int64_t capacity_bytes = 0;
  RoleSet roles;
};

}  // namespace lightcode::hw
