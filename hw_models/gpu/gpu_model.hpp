#pragma once
// Default-profile GPU cost model (H100-like). The device is one unit; every op is one kernel
// whose KernelPlan (CTAs, waves, per-wave time, launch) is the single source of truth: the
// selector's estimate() is plan().total() and the SystemC block scheduler hands the same CTAs
// to SMs.
//   Matrix products (dense, matmul = batch_matmul, pack, matrix_matrix): 128x128 output tiles
//   (64x128 when M <= 64, Hopper's smallest wgmma M) per batch element, split along K when
//   the tiles cannot fill the SMs. waves = ceil(ctas / sms); one CTA more than a wave costs a
//   wave. per_wave = max(the CTA's FLOPs at a 1/sms share of tensor_throughput[dtype] x
//   efficiency (CUDA cores for cuda_core), the CTA's HBM bytes at a 1/sms share of
//   hbm_bandwidth x efficiency). A wave's CTAs share operand panels through L2, so a CTA's
//   bytes are the wave's unique panel bytes / CTAs in the wave.
//   Element-wise ops and reductions: one grid-stride wave over at most sms CTAs, time =
//   max(lane ops / (fp32_cores_per_sm x sms x clock x efficiency), bytes / (hbm x eff)).
//   Copies (transpose, slice, concatenate, take, split): HBM-bound. Views (nop, reshape):
//   no kernel, zero time.
//   Every kernel adds launch_overhead once. Units: Time in ps, FLOPs, bytes of HBM traffic.
// Energy: MACs x energy_per_mac on tensor cores, FLOPs x energy_per_flop on CUDA cores, plus
// HBM bytes x energy_per_hbm_byte.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hw_models/gpu/gpu_spec.hpp"
#include "hw_models/hardware_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/unit_modules.hpp"

namespace lightcode::hw {

enum GpuAlgorithm : AlgorithmId {
  kGpuTensorCore = 0,  // matrix products on tensor cores (dtypes with a tensor_throughput)
  kGpuCudaCore = 1,    // element-wise ops, reductions, and matrix products as a fallback
  kGpuCopy = 2,        // data movement: views and HBM-bound copies
};

struct KernelPlan {
  AlgorithmId algorithm = kGpuCudaCore;  // what runs (tensor_core falls back to cuda_core)
  int64_t ctas = 0;                      // thread blocks in the grid (0: no kernel, e.g. a reshape)
  int sms = 0;                           // SMs of the device
  int64_t waves = 0;                     // ceil(ctas / sms); every wave costs per_wave
  Time per_wave;                         // one CTA on one SM (all CTAs of a kernel are alike)
  Time launch;                           // once per kernel
  int64_t tile_m = 0;                    // output tile of a matrix product (0 otherwise)
  int64_t tile_n = 0;
  int64_t split_k = 1;  // CTAs sharing one output tile along K
  double flops = 0.0;   // useful arithmetic (no tile padding); lane ops for element-wise
  double macs = 0.0;
  int64_t bytes_read = 0;  // HBM traffic of the whole kernel
  int64_t bytes_written = 0;
  Bound bound = Bound::compute;

  Time total() const { return per_wave * waves + launch; }
};

class GpuModel final : public HardwareModel {
 public:
  explicit GpuModel(const GpuSpec& spec);

  const GpuSpec& spec() const { return spec_; }
  // The kernel `op` becomes under `algorithm`; pure and allocation-free like estimate().
  KernelPlan plan(const ir::Node& op, AlgorithmId algorithm) const;

  Capabilities capabilities() const override {
    Capabilities c;
    c.role = TransferRole::gpu;
    c.clock_hz = spec_.clock_hz;
    return c;
  }
  int unit_count() const override { return 1; }
  AlgorithmList algorithms(const ir::Node& op) const override;
  std::string_view algorithm_name(AlgorithmId id) const override;
  Cost estimate(const ir::Node& op, AlgorithmId algorithm) const override;
  double static_power_watts() const override { return spec_.static_power_w; }

 private:
  KernelPlan product_plan(const ir::Node& op, bool tensor) const;
  KernelPlan streaming_plan(const ir::Node& op, double lane_ops) const;
  double tensor_rate(ir::DType t) const;  // device FLOP/s, 0 = no tensor-core path

  GpuSpec spec_;
  int sms_;
  std::array<double, 16> tensor_flops_{};  // by DType, peak x efficiency
  double cuda_lane_ops_per_s_;             // device, efficiency applied
  double hbm_bytes_per_s_;                 // device, efficiency applied
};

std::unique_ptr<HardwareModel> make_gpu_model(const GpuSpec& spec);
// Its SystemC device (hw_models/gpu/sc_gpu.cpp): GPCs > TPCs > SMs and a block scheduler.
std::unique_ptr<UnitModules> make_gpu_modules(const ModuleContext& context);
std::vector<AlgorithmInfo> gpu_algorithms();

}  // namespace lightcode::hw
