#pragma once
// H100-like GPU spec (family: gpu): GPCs -> TPCs -> SMs, CUDA and tensor cores per SM. Every
// key is declared once in gpu_params() (gpu_spec.cpp) with its unit, default and meaning.
// Tensor throughput for float32 means TF32 tensor-core math (what frameworks use for FP32
// GEMMs on Hopper). Derived: sms() = gpcs * tpcs_per_gpc * sms_per_tpc. An H100's L2 (50 MB),
// HBM capacity (80 GB) and tensor cores per SM (4) are facts no model here uses yet, so they
// are not keys (a key no model reads is an error). Power (gpu_power_fit.hpp): the TDP scales the
// shared energy shares into this GPU's energies per FLOP; each energy may be given instead.
#include <map>
#include <string>
#include <vector>

#include "hw_models/gpu/gpu_runtime.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/ir/dtype.hpp"

namespace lightcode::hw {

struct GpuSpec {
  std::string name;
  int gpcs = 0;
  int tpcs_per_gpc = 0;
  int sms_per_tpc = 0;
  int fp32_cores_per_sm = 0;
  double clock_hz = 0.0;
  std::map<ir::DType, double> tensor_flops;  // whole device, dense, FLOP/s, at tensor_throughput_sms
  int tensor_throughput_sms = 0;             // SMs the tensor figures were quoted for
  double hbm_bandwidth = 0.0;                // B/s
  int sfus_per_sm = 16;                      // special-function units (exp, rsqrt) per SM
  const GpuRuntime* runtime = nullptr;       // how kernels are issued (eager, cuda_graph)
  RuntimeTiming timing;                      // the runtime's parameters
  // Fusion rules whose groups run as one kernel, by name; all rules when `fuse_all`.
  bool fuse_all = true;
  std::vector<std::string> fusion;
  // Power. Energies per operation: 0 in tensor_mac_j means "derived from the TDP" (by dtype).
  double tdp_w = 0.0;                        // the datasheet's maximum board power (0: no power model)
  double power_limit_w = 0.0;                // kernels are throttled to this (default: tdp; 0: none)
  double active_power_w = 0.0;               // beyond idle while a kernel runs
  double energy_per_mac_j = 0.07e-12;        // tensor-core MAC, every dtype (0: from the TDP)
  double energy_per_flop_j = 0.0;            // CUDA-core FLOP or element-wise lane op
  double energy_per_hbm_byte_j = 0.0;
  double static_power_w = 0.0;               // idle, a CUDA context resident

  int sms() const { return gpcs * tpcs_per_gpc * sms_per_tpc; }
  // Energy per tensor-core MAC of a dtype whose datasheet rate is `rate` FLOP/s: energy_per_mac
  // when set, else the fitted tensor share of the TDP at that rate (two FLOPs a MAC).
  double tensor_mac_energy_j(double rate) const;
};

const ParamTable& gpu_params();
GpuSpec parse_gpu_spec(const Params& params);
GpuSpec parse_gpu_spec(const ConfigNode& node);  // with a usage record of its own
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> gpu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
