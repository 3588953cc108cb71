#pragma once
// What running one op (or moving one tensor) costs on one kind of hardware. Produced by the
// pure cost models; consumed by the selector, the analytical scheduler and, as service time,
// by the SystemC modules.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/core/quantity.hpp"

namespace lightcode::hw {

// What limits the time: arithmetic units, memory or link bandwidth, optical-electrical
// conversion (DAC/ADC), or a fixed latency (launch overhead, a 1-cycle bookkeeping op).
enum class Bound : uint8_t { compute, memory, conversion, latency };

std::string_view bound_name(Bound b);

// Where a device-built unit's energy goes, by the categories of its event counts (a PHU:
// laser; modulation = DACs + modulators; detection = photodetectors, TIAs, ADCs, adders;
// on-chip memory). The report's energy breakdown shows these rows for the unit.
enum class EnergyPart : uint8_t { laser, modulation, detection, memory };
inline constexpr size_t kEnergyParts = 4;
std::string_view energy_part_name(EnergyPart p);  // "laser", "modulation", ...

// Empty (every part zero) for a unit that does not split its energy: the report then shows
// today's rows, compute or memory (energy less conversion) and conversion. When not empty,
// the parts add up to Cost::energy.
struct EnergyParts {
  std::array<Energy, kEnergyParts> part{};
  Energy& operator[](EnergyPart p) { return part[static_cast<size_t>(p)]; }
  Energy operator[](EnergyPart p) const { return part[static_cast<size_t>(p)]; }
  bool empty() const {
    for (Energy e : part) {
      if (!(e == Energy::zero())) return false;
    }
    return true;
  }
};

struct Cost {
  Time time;
  Energy energy;
  Energy conversion_energy;  // the part of `energy` spent in DAC/ADC conversion (photonic units)
  EnergyParts parts;         // `energy` by category, for units that split it (else empty)
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  Bound bound = Bound::compute;
};

}  // namespace lightcode::hw
