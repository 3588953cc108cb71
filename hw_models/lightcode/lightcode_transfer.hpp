#pragma once
// The original's transfer table (`lightcode` profile): fixed time per transfer whatever its
// size, energy per 32-bit number moved, direct links HBM<->SRAM, SRAM<->CPU, SRAM<->PHU, and
// every other pair routed through SRAM (so CPU -> CPU is two hops: 2/6 GHz, 28 pJ per number).
// `start` -> anything is free. The GPU, whose links the original does not publish, is wired
// like the CPU (assumption, documented in docs/MODEL.md).
// Callers pass the tensor the original moves: the producer's output 0.
#include <memory>
#include <vector>

#include "hw_models/capabilities.hpp"
#include "hw_models/transfer_model.hpp"

namespace lightcode::hw {

// roles[t] says what unit type t is (its model's capabilities().role).
std::unique_ptr<TransferModel> make_lightcode_transfer(const std::vector<TransferRole>& roles);

}  // namespace lightcode::hw
