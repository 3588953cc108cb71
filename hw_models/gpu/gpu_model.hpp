#pragma once
// Default-profile GPU cost model (H100-like). The device is one unit; every op, and every fused
// group (sim/ir/fusion.hpp) of a rule the GPU runs, is one kernel whose KernelPlan (CTAs,
// waves, wave times, fixed latency, runtime overhead) is the single source of truth: estimate()
// and estimate_fused() are plan().total(), and the SystemC block scheduler (sc_gpu.cpp) hands
// the same CTAs to SMs.
//   GEMMs (dense, matmul, pack; fused GEMM epilogues and horizontal groups): the plan a
//   cuBLAS/CUTLASS-class library would pick, searched over output tiles 64x64 .. 128x256 /
//   256x128 and split-K (only when the tiles cannot fill the SMs); the fastest wins. A CTA's
//   mainloop runs at a tile-dependent efficiency and pays a pipeline fill; a wave lasts
//   max(CTA compute, the wave's share of the kernel's HBM bytes at the full device bandwidth)
//   plus an overlap loss; a partial last wave costs a whole CTA only when compute limits it.
//   Attention (fused): FlashAttention-2 style, CTAs over (head, query block), causal work
//   skipping key blocks above the diagonal, exp on the SFUs, Q/K/V read and O written.
//   Streaming kernels (element-wise, reductions, softmax, rotary, activation, copies, gathers):
//   a per-class achieved bandwidth, a per-row floor and a fixed latency.
//   Views (nop, reshape) are no kernel: zero time.
// Constants: datasheet keys (gpu_spec.hpp) and the fitted constants every GPU shares
// (gpu_kernel_fit.hpp). The runtime (gpu_runtime.hpp) adds its overhead to each kernel.
// Energy and power (gpu_power_fit.hpp): tensor-core MACs at the dtype's energy per MAC, the
// rest of the arithmetic at the CUDA cores' energy per FLOP, HBM bytes at the energy per HBM
// byte, and active_power over the kernel's time; a kernel whose board power (static + active +
// dynamic energy / time) would exceed power_limit is throttled (finish(): its waves and latency
// stretched until its power is the limit; Bound::power). Cost::parts splits the energy into
// tensor_cores, cuda_cores, hbm and active; static power is the report's, over the makespan.
// Units: Time in ps, FLOPs, bytes of HBM traffic.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
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
  kGpuFused = 3,       // a fused group (estimate_fused)
};

struct KernelPlan {
  AlgorithmId algorithm = kGpuCudaCore;  // what runs (tensor_core falls back to cuda_core)
  int64_t ctas = 0;                      // thread blocks in the grid (0: no kernel, e.g. a reshape)
  int sms = 0;                           // SMs of the device
  int64_t waves = 0;                     // ceil(ctas / sms)
  Time per_wave;                         // each wave but the last
  Time last_wave;                        // the last wave (shorter when partial and memory-bound)
  Time latency;                          // the kernel's fixed time (setup, drain), once
  Time runtime_overhead;                 // the runtime's launch or gap on the GPU's timeline
  int64_t tile_m = 0;                    // output tile of a matrix product (0 otherwise)
  int64_t tile_n = 0;
  int64_t split_k = 1;  // CTAs sharing one output tile along K
  double flops = 0.0;   // useful arithmetic (no tile padding); lane ops for element-wise
  double macs = 0.0;
  int64_t bytes_read = 0;  // HBM traffic of the whole kernel
  int64_t bytes_written = 0;
  ir::DType dtype = ir::DType::float32;  // of the tensor-core products (their energy per MAC)
  double clock_scale = 1.0;              // < 1: throttled to the power limit
  Bound bound = Bound::compute;

  Time waves_time() const { return waves == 0 ? Time::zero() : per_wave * (waves - 1) + last_wave; }
  // The kernel alone (what a profiler reports), and with the runtime's overhead.
  Time kernel() const { return waves_time() + latency; }
  Time total() const { return kernel() + runtime_overhead; }
};

class GpuModel final : public HardwareModel {
 public:
  explicit GpuModel(const GpuSpec& spec);

  const GpuSpec& spec() const { return spec_; }
  // The kernel `op` becomes under `algorithm`; pure like estimate().
  KernelPlan plan(const ir::Node& op, AlgorithmId algorithm) const;
  // The kernel a fused group becomes. Precondition: fuses(kernel.rule).
  KernelPlan plan_fused(const ir::FusedKernel& kernel) const;

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
  bool fuses(std::string_view rule) const override;
  Cost estimate_fused(const ir::FusedKernel& kernel) const override;
  double static_power_watts() const override { return spec_.static_power_w; }

  // Streaming classes: each has its own achieved bandwidth, row floor and latency.
  enum class Stream : uint8_t { elementwise, reduction, softmax, rope, activation, gather, copy };

  // What a GEMM-class kernel computes and moves (also the fused epilogue's extras).
  struct GemmWork {
    int64_t batch = 0, m = 0, n = 0, k = 0;
    double read_bytes = 0.0;    // HBM bytes read once (operands, epilogue operands)
    double write_bytes = 0.0;   // HBM bytes written (outputs)
    double epilogue_ops = 0.0;  // CUDA-core lane ops per output element in the epilogue
    int64_t partial_bytes = 4;  // split-K partial sums (FP32) through the workspace

    // batch x [m, k] x [k, n], reading every input and writing every output once.
    static GemmWork of(int64_t batch, int64_t m, int64_t n, int64_t k,
                       const std::vector<ir::TensorType>& inputs,
                       const std::vector<ir::TensorType>& outputs);
  };
  // A streaming kernel's work: bytes moved, rows (one CTA each), lane ops.
  struct StreamWork {
    double bytes_read = 0.0, bytes_written = 0.0;
    int64_t elements = 0;  // the largest tensor's elements
    int64_t rows = 0;      // rows of the largest tensor (elements / last dimension)
    double lane_ops = 0.0;
  };

  KernelPlan gemm_plan(const GemmWork& work, bool tensor, ir::DType dtype) const;
  KernelPlan stream_plan(const StreamWork& work, Stream cls) const;

 private:
  KernelPlan attention_plan(const ir::FusedKernel& kernel) const;
  KernelPlan finish(KernelPlan p) const;  // throttles to the power limit, adds the runtime's overhead
  double tensor_rate(ir::DType t) const;  // device FLOP/s at peak, 0 = no tensor-core path
  // The kernel's dynamic energy by part (tensor_cores, cuda_cores, hbm), in joules.
  EnergyParts dynamic_energy(const KernelPlan& p) const;
  Cost cost_of(const KernelPlan& p) const;

  GpuSpec spec_;
  int sms_;
  std::array<double, 16> tensor_flops_{};  // by DType, device peak
  std::array<double, 16> tensor_mac_j_{};  // by DType, energy per tensor-core MAC
  double cuda_lane_ops_per_s_;             // device peak
  double hbm_bytes_per_s_;                 // datasheet
};

// CUDA-core lane-op equivalents of one element of `kind`; an SFU op (exp, rsqrt) costs
// `sfu_cost` lanes (fp32_cores_per_sm / sfus_per_sm).
double gpu_lane_ops_per_element(ir::OpKind kind, double sfu_cost);

std::unique_ptr<HardwareModel> make_gpu_model(const GpuSpec& spec);
// Its SystemC device (hw_models/gpu/sc_gpu.cpp): GPCs > TPCs > SMs and a block scheduler.
std::unique_ptr<UnitModules> make_gpu_modules(const ModuleContext& context);
std::vector<AlgorithmInfo> gpu_algorithms();

}  // namespace lightcode::hw
