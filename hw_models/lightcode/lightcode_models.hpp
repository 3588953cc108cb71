#pragma once
// Cost models of the `lightcode` profile: exactly the arithmetic of the original
// (reference/LIGHTCODE_MODEL.md), quirks included. Every figure the original takes from its
// hardware description is read from the unit's spec (configs/hardware/*_lightcode.yaml: one
// source of truth); only the original's rules stay in lightcode_constants.hpp.
//   CPU (reads cores, clock, energy_per_cycle, energy_per_mac, fits add/dense/matmul/pack):
//        per-kind cycle counts, the `add` fit, the matrix-product fits with their second
//        regime for any input dimension above 50000 (the original's rule, not a cache size),
//        mean's energy quirk (energy_per_cycle per output element), to / nd n_out cycles;
//        kinds the original does not list have no candidate (selection fails, as the original).
//   PHU (cores, clock, multiplex, energy_per_mac): dense / matmul / pack / matrix_matrix;
//        cycles = ceil(ceil(n_out / multiplex) / cores) * K; energy = MACs * energy_per_mac.
//        Its DAC/ADC energies are charged by the transfer table (lightcode_transfer.hpp).
//   Memory: HBM (preload_energy, read_energy) runs `memory` nodes: 0 s, preload + read per
//        element; SRAM (clock, op_energy) runs split / merge: 1 cycle, op_energy; the start
//        pseudo-unit runs `start` (no time, no energy). SRAM also runs TVM split (a fact).
// Energy terms: the published table's version (docs/LIGHTCODE_PROFILE.md cites each).
#include <memory>

#include "hw_models/hardware_model.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

std::unique_ptr<HardwareModel> make_lightcode_cpu(const Params& spec);
std::unique_ptr<HardwareModel> make_lightcode_phu(const Params& spec);
std::unique_ptr<HardwareModel> make_lightcode_memory(const Params& spec);
std::unique_ptr<HardwareModel> make_lightcode_start();

}  // namespace lightcode::hw
