#pragma once
// What running one op (or moving one tensor) costs on one kind of hardware. Produced by the
// pure cost models; consumed by the selector, the analytical scheduler and, as service time,
// by the SystemC modules.
#include <cstdint>
#include <string_view>

#include "sim/core/quantity.hpp"

namespace lightcode::hw {

// What limits the time: arithmetic units, memory or link bandwidth, optical-electrical
// conversion (DAC/ADC), or a fixed latency (launch overhead, a 1-cycle bookkeeping op).
enum class Bound : uint8_t { compute, memory, conversion, latency };

std::string_view bound_name(Bound b);

struct Cost {
  Time time;
  Energy energy;
  Energy conversion_energy;  // the part of `energy` spent in DAC/ADC conversion (photonic units)
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  Bound bound = Bound::compute;
};

}  // namespace lightcode::hw
