#pragma once
// SystemC memories: HBM serves graph inputs (zero time: weights are resident), SRAM serves
// the split / merge bookkeeping of expanded photonic products. Capacity and occupancy are
// tracked by the engine, which knows which tensors are alive.
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

class Hbm final : public ServiceUnit {
 public:
  using ServiceUnit::ServiceUnit;
};

class Sram final : public ServiceUnit {
 public:
  using ServiceUnit::ServiceUnit;
};

}  // namespace lightcode::hw
