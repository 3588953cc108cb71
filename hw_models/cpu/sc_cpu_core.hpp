#pragma once
// SystemC CPU core: serves one task at a time for the CPU model's estimate() time.
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

class CpuCore final : public ServiceUnit {
 public:
  using ServiceUnit::ServiceUnit;
};

}  // namespace lightcode::hw
