#pragma once
// H100-like GPU spec (family: gpu): GPCs -> TPCs -> SMs, CUDA and tensor cores per SM.
//   gpcs: 8  tpcs_per_gpc: 9  sms_per_tpc: 2  fp32_cores_per_sm: 128  tensor_cores_per_sm: 4
//   clock: 1.98 GHz
//   tensor_throughput: {float32: 494.7 TFLOP/s, bfloat16: 989 TFLOP/s, float8: 1979 TFLOP/s}
//   tensor_throughput_sms: 132    the SM count those figures are for (default: sms()); the
//                                 model keeps the per-SM rate, so fewer SMs mean less peak
//   hbm_bandwidth: 3.35 TB/s  hbm_capacity: 80 GB  l2: 50 MB  launch_overhead: 4 us
//   efficiency: {tensor: 0.8, cuda: 0.8, hbm: 0.9}     fractions of peak actually reached
//   energy_per_mac: 0.07 pJ   energy_per_flop: ...   static_power: 0 W
//   hbm_energy_per_bit: 3.9 pJ/bit   tdp: 700 W (informational)
// Optional keys and their defaults are listed in gpu_spec.cpp (efficiencies 0.8/0.8/0.9,
// energy_per_flop = energy_per_mac / 2, launch_overhead 0 s, energies and powers 0).
// Tensor throughput for float32 means TF32 tensor-core math (what frameworks use for FP32
// GEMMs on Hopper). Derived: sms() = gpcs * tpcs_per_gpc * sms_per_tpc.
#include <map>
#include <string>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/ir/dtype.hpp"

namespace lightcode::hw {

struct GpuSpec {
  std::string name;
  int gpcs = 0;
  int tpcs_per_gpc = 0;
  int sms_per_tpc = 0;
  int fp32_cores_per_sm = 0;
  int tensor_cores_per_sm = 0;
  double clock_hz = 0.0;
  std::map<ir::DType, double> tensor_flops;  // whole device, dense, FLOP/s, at tensor_throughput_sms
  int tensor_throughput_sms = 0;             // SMs the tensor figures were quoted for
  double hbm_bandwidth = 0.0;                // B/s
  double hbm_capacity = 0.0;                 // B
  double l2_bytes = 0.0;                     // B
  double launch_overhead_s = 0.0;
  double tensor_efficiency = 1.0;
  double cuda_efficiency = 1.0;
  double hbm_efficiency = 1.0;
  double energy_per_mac_j = 0.07e-12;
  double energy_per_flop_j = 0.0;            // CUDA-core element-wise work
  double energy_per_hbm_byte_j = 0.0;
  double static_power_w = 0.0;
  double tdp_w = 0.0;                        // informational

  int sms() const { return gpcs * tpcs_per_gpc * sms_per_tpc; }
};

GpuSpec parse_gpu_spec(const ConfigNode& node);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> gpu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
