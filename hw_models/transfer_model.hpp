#pragma once
// The cost of moving one tensor between two unit types along the system's links. Pairs
// without a direct link route through SRAM (a -> sram -> b). Pure and const like
// HardwareModel. In the default profile time grows with bytes (latency + bytes / bandwidth
// per hop); the `lightcode` profile reproduces the original's size-independent times.
#include <string_view>

#include "hw_models/cost.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::hw {

// Unit types are small dense ids assigned by the System (index into System::units()).
using UnitType = int16_t;

class TransferModel {
 public:
  virtual ~TransferModel() = default;
  // `tensor` is what moves; `from`/`to` are unit types. from == to on a unit type with
  // several cores still crosses the fabric in the lightcode profile (CPU -> CPU costs 2 hops).
  virtual Cost estimate(const ir::TensorType& tensor, UnitType from, UnitType to) const = 0;
};

}  // namespace lightcode::hw
