#include "hw_models/cost.hpp"

namespace lightcode::hw {

std::string_view bound_name(Bound b) {
  switch (b) {
    case Bound::compute: return "compute";
    case Bound::memory: return "memory";
    case Bound::conversion: return "conversion";
    case Bound::latency: return "latency";
    case Bound::power: return "power";
  }
  return "?";
}

std::string_view energy_part_name(EnergyPart p) {
  switch (p) {
    case EnergyPart::laser: return "laser";
    case EnergyPart::modulation: return "modulation";
    case EnergyPart::detection: return "detection";
    case EnergyPart::memory: return "memory";
    case EnergyPart::tensor_cores: return "tensor_cores";
    case EnergyPart::cuda_cores: return "cuda_cores";
    case EnergyPart::hbm: return "hbm";
    case EnergyPart::active: return "active";
    case EnergyPart::communication: return "communication";
  }
  return "?";
}

}  // namespace lightcode::hw
