#pragma once
// The original's transfer table (`lightcode` profile): fixed time per transfer whatever its
// size, energy per 32-bit number moved, direct links HBM<->SRAM, SRAM<->CPU, SRAM<->PHU, and
// every other pair routed through SRAM (so CPU -> CPU is two hops: 2/6 GHz, 28 pJ per number).
// Energies: HBM -> SRAM hbm read + sram write (40 + 12), SRAM -> HBM sram read + hbm write,
// SRAM <-> core sram side + 1 + 1, SRAM -> PHU adds the DAC, PHU -> SRAM the ADC.
// `start` -> anything is free. The GPU, whose links the original does not publish, is wired
// like the CPU (assumption, documented in docs/LIGHTCODE_PROFILE.md).
// Callers pass the tensor the original moves: the producer's output 0.
#include <memory>
#include <vector>


#include "hw_models/capabilities.hpp"
#include "hw_models/transfer_model.hpp"

namespace lightcode::hw {

// The figures of the original's table that come from its hardware description, per 32-bit
// number (read from the memories' and the PHU's specs by the lightcode profile).
struct LightcodeTransferFigures {
  double sram_cycle_s = 0.0;  // one cycle of the SRAM clock: most hops take one
  double hbm_read_pj = 0.0;
  double hbm_write_pj = 0.0;
  double sram_read_pj = 0.0;
  double sram_write_pj = 0.0;
  double dac_pj = 0.0;  // SRAM -> PHU converts every number in
  double adc_pj = 0.0;  // PHU -> SRAM converts every number out
};

// roles[t] says what unit type t is (its model's capabilities().role).
std::unique_ptr<TransferModel> make_lightcode_transfer(const std::vector<TransferRole>& roles,
                                                       const LightcodeTransferFigures& figures);

}  // namespace lightcode::hw
