#include "hw_models/cost.hpp"

namespace lightcode::hw {

std::string_view bound_name(Bound b) {
  switch (b) {
    case Bound::compute: return "compute";
    case Bound::memory: return "memory";
    case Bound::conversion: return "conversion";
    case Bound::latency: return "latency";
  }
  return "?";
}

}  // namespace lightcode::hw
