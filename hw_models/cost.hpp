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
// conversion (DAC/ADC), a fixed latency (launch overhead, a 1-cycle bookkeeping op), or the
// power limit (a GPU kernel throttled to its board's limit).
enum class Bound : uint8_t { compute, memory, conversion, latency, power };

std::string_view bound_name(Bound b);

// Where a unit's energy goes, by the physical resource that spends it (the report's energy
// breakdown shows these rows for the unit). A device-built PHU: laser; modulation = DACs +
// modulators; detection = photodetectors, TIAs, ADCs, adders; on-chip memory. A GPU: tensor
// cores, CUDA cores, HBM (array, PHY and the on-chip path), and active: the power a running
// kernel draws beyond idle (gpu_power_fit.hpp). An interconnect: communication (the links
// and switches a collective crosses).
enum class EnergyPart : uint8_t { laser, modulation, detection, memory, tensor_cores, cuda_cores, hbm, active, communication };
inline constexpr size_t kEnergyParts = 9;
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
  Energy total() const {
    Energy sum;
    for (Energy e : part) sum = sum + e;
    return sum;
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
