#pragma once
// Default-profile CPU cost model. Each core is one unit running one op at a time, with a
// 1/cores share of the socket's memory bandwidth (all cores busy is the case that matters).
//   element-wise, reductions, data movement: time = max(lane ops / (vector lanes * clock),
//       bytes read + written / (memory_bandwidth / cores), 1 cycle)
//   matrix products (dense, matmul, pack, matrix_matrix): 2 FLOPs per MAC at
//       vector_flops_per_cycle * clock * gemm_efficiency, or memory-bound as above.
//   A calibrated fit for the op's kind (CpuSpec::fits) replaces the analytic time:
//       time = per_work * work + offset (work = MACs or elements of output 0), never below a cycle.
// Energy: MACs * energy_per_mac for products, busy cycles * energy_per_cycle otherwise.
// Runs every op kind except `memory`, the SRAM bookkeeping kinds and `start`.
#include <memory>
#include <vector>

#include "hw_models/cpu/cpu_spec.hpp"
#include "hw_models/hardware_model.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {

enum CpuAlgorithm : AlgorithmId {
  kCpuVector = 0,      // analytic: SIMD lanes or memory bandwidth
  kCpuCalibrated = 1,  // a measured linear fit for the op kind
};

std::unique_ptr<HardwareModel> make_cpu_model(const CpuSpec& spec);
std::vector<AlgorithmInfo> cpu_algorithms();

}  // namespace lightcode::hw
