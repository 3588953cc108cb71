#include "hw_models/hardware_model.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace lightcode::hw {

Cost HardwareModel::estimate_fused(const ir::FusedKernel& kernel) const {
  throw Error("internal: a unit that fuses no '" + std::string(kernel.rule) +
              "' groups was asked to cost one");
}

}  // namespace lightcode::hw
