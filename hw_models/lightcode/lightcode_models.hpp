#pragma once
// Cost models of the `lightcode` profile: exactly the arithmetic of the original
// (reference/LIGHTCODE_MODEL.md), quirks included. Cores, clocks and multiplex come from the
// unit's spec so sweeps work; every other figure is the original's constant.
//   CPU: per-kind cycle counts, the `add` fit, the two matrix-product fits, mean's energy
//        quirk (1 pJ per output element), TVM split 1 cycle and 0 pJ; kinds the original
//        does not list cost 1 cycle.
//   PHU: dense / matmul / pack / matrix_matrix; cycles = ceil(ceil(n_out / multiplex) /
//        cores) * K; energy = MACs * 0.04 pJ.
//   Memory: HBM runs `memory` nodes (0 s, 200 pJ per element); SRAM runs split / merge
//        (1 cycle at 6 GHz, 0 pJ); the start pseudo-unit runs `start` (10 ns, 0 pJ).
// Where the reference and the seed table disagree, the table wins: docs/LIGHTCODE_PROFILE.md.
#include <memory>

#include "hw_models/cpu/cpu_spec.hpp"
#include "hw_models/hardware_model.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "hw_models/phu/phu_spec.hpp"

namespace lightcode::hw {

std::unique_ptr<HardwareModel> make_lightcode_cpu(const CpuSpec& spec);
std::unique_ptr<HardwareModel> make_lightcode_phu(const PhuSpec& spec);
std::unique_ptr<HardwareModel> make_lightcode_memory(const MemorySpec& spec);
std::unique_ptr<HardwareModel> make_lightcode_start();

}  // namespace lightcode::hw
