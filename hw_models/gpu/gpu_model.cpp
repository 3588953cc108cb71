#include "hw_models/gpu/gpu_model.hpp"

#include <algorithm>
#include <cmath>

#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;

// Output tile of a matrix-product CTA: 128x128 is cuBLAS/CUTLASS's workhorse Hopper tile;
// M <= 64 takes 64x128 (wgmma's smallest M), so decode-time GEMVs waste half, not 127/128.
constexpr int64_t kTileM = 128;
constexpr int64_t kSmallTileM = 64;
constexpr int64_t kTileN = 128;
// Split-K only when the tiles cannot fill the SMs, and never into slices under this depth.
constexpr int64_t kMinSplitDepth = 256;
// Split-K partial sums are FP32, written by each slice and read back by the reduction.
constexpr int64_t kPartialBytes = 4;
// Grid-stride element-wise kernels: 256 threads x 4 elements per CTA, at most one wave.
constexpr int64_t kElementsPerCta = 1024;

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

bool is_view(OpKind k) {
  return k == OpKind::nop || k == OpKind::reshape;
}
bool is_copy(OpKind k) {
  return is_view(k) || k == OpKind::transpose || k == OpKind::slice || k == OpKind::concatenate ||
         k == OpKind::take || k == OpKind::split;
}

// FP32-lane-op equivalents per element. Transcendentals run on the SFUs, 16 per SM per clock
// against 128 FP32 lanes (H100 whitepaper), so one SFU op counts 8; divide is a reciprocal
// and a multiply; erf is a ~10-FMA polynomial; softmax = max, subtract, exp, sum, divide.
double lane_ops_per_element(OpKind k) {
  switch (k) {
    case OpKind::sqrt:
    case OpKind::rsqrt:
    case OpKind::exp:
    case OpKind::tanh:
      return 8.0;
    case OpKind::divide:
    case OpKind::erf:
      return 10.0;
    case OpKind::sigmoid:
    case OpKind::power:
      return 17.0;
    case OpKind::softmax:
      return 21.0;
    default:  // add, subtract, multiply, negative, relu, max, less, equal, where, cast, mean, sum
      return 1.0;
  }
}

// HBM bytes read: the inputs, except that slice and take read only what they keep (take
// also reads its indices).
int64_t bytes_read(const ir::Node& op) {
  if (op.kind == OpKind::slice) return ir::total_bytes(op.outputs);
  if (op.kind == OpKind::take) {
    return ir::total_bytes(op.outputs) + (op.input_types.size() > 1 ? op.input_type(1).bytes() : 0);
  }
  return ir::total_bytes(op.input_types);
}

struct GemmDims {
  int64_t batch = 0, m = 0, n = 0, k = 0;
};

// TVM layouts: dense [M, K] x [N, K] -> [M, N] (pack likewise, packed weights);
// batch_matmul [B, M, K] x [B, N, K] -> [B, M, N]. K is input 0's last dimension.
GemmDims gemm_dims(const ir::Node& op) {
  GemmDims g;
  if (op.outputs.empty() || op.input_types.empty()) return g;
  const ir::Shape& out = op.output().shape;
  const int64_t elements = out.elements();
  g.n = out.back();
  g.k = op.input_type(0).shape.back();
  if (g.n <= 0 || elements <= 0 || g.k <= 0) return GemmDims{};
  if (op.kind == OpKind::matmul && out.rank() >= 3) {
    g.m = out.from_back(2);
    g.batch = elements / (g.m * g.n);
  } else {
    g.m = elements / g.n;
    g.batch = 1;
  }
  return g;
}

}  // namespace

GpuModel::GpuModel(const GpuSpec& spec)
    : spec_(spec),
      sms_(spec.sms()),
      cuda_lane_ops_per_s_(static_cast<double>(spec.fp32_cores_per_sm) * spec.sms() *
                           spec.clock_hz * spec.cuda_efficiency),
      hbm_bytes_per_s_(spec.hbm_bandwidth * spec.hbm_efficiency) {
  // Tensor figures are quoted for tensor_throughput_sms SMs; the per-SM rate is what holds.
  const double sm_scale = spec_.tensor_throughput_sms > 0
                              ? static_cast<double>(sms_) / spec_.tensor_throughput_sms
                              : 1.0;
  for (const auto& [dtype, flops] : spec_.tensor_flops) {
    tensor_flops_[static_cast<size_t>(dtype)] = flops * spec_.tensor_efficiency * sm_scale;
  }
  // Datasheets list FP16 and BF16 (and FP8 and INT8) at the same rate; fill the sibling that
  // a config leaves out.
  auto sibling = [this](ir::DType a, ir::DType b) {
    double& x = tensor_flops_[static_cast<size_t>(a)];
    double& y = tensor_flops_[static_cast<size_t>(b)];
    if (x == 0.0) x = y;
    if (y == 0.0) y = x;
  };
  sibling(ir::DType::float16, ir::DType::bfloat16);
  sibling(ir::DType::float8, ir::DType::int8);
  sibling(ir::DType::int8, ir::DType::uint8);
}

double GpuModel::tensor_rate(ir::DType t) const {
  return tensor_flops_[static_cast<size_t>(t)];
}

AlgorithmList GpuModel::algorithms(const ir::Node& op) const {
  AlgorithmList list;
  if (ir::is_bookkeeping(op.kind)) return list;
  if (ir::is_matrix_product(op.kind)) {
    if (!op.input_types.empty() && tensor_rate(op.input_type(0).dtype) > 0.0)
      list.add(kGpuTensorCore);
    list.add(kGpuCudaCore);
  } else if (is_copy(op.kind)) {
    list.add(kGpuCopy);
  } else {
    list.add(kGpuCudaCore);
  }
  return list;
}

std::string_view GpuModel::algorithm_name(AlgorithmId id) const {
  switch (id) {
    case kGpuTensorCore:
      return "tensor_core";
    case kGpuCudaCore:
      return "cuda_core";
    case kGpuCopy:
      return "copy";
    default:
      return "?";
  }
}

KernelPlan GpuModel::plan(const ir::Node& op, AlgorithmId algorithm) const {
  KernelPlan p;
  if (ir::is_matrix_product(op.kind)) {
    const bool tensor = algorithm == kGpuTensorCore && !op.input_types.empty() &&
                        tensor_rate(op.input_type(0).dtype) > 0.0;
    p = product_plan(op, tensor);
    p.algorithm = tensor ? kGpuTensorCore : kGpuCudaCore;
  } else if (is_view(op.kind)) {
    p.algorithm = kGpuCopy;
    p.sms = sms_;
    p.bound = Bound::latency;  // a view: no kernel, no launch
    return p;
  } else {
    p = streaming_plan(op, is_copy(op.kind) ? 0.0 : lane_ops_per_element(op.kind));
    p.algorithm = is_copy(op.kind) ? kGpuCopy : kGpuCudaCore;
  }
  p.launch = Time::from_seconds(spec_.launch_overhead_s);
  if (p.launch > p.per_wave * p.waves) p.bound = Bound::latency;
  return p;
}

KernelPlan GpuModel::product_plan(const ir::Node& op, bool tensor) const {
  KernelPlan p;
  p.sms = sms_;
  const GemmDims g = gemm_dims(op);
  p.macs = static_cast<double>(g.batch * g.m * g.n) * static_cast<double>(g.k);
  p.flops = 2.0 * p.macs;
  if (g.batch == 0) {
    p.bound = Bound::latency;
    return p;
  }
  const int64_t in_bytes = ir::dtype_bytes(op.input_type(0).dtype);
  const int64_t out_bytes = ir::dtype_bytes(op.output().dtype);
  p.tile_m = g.m <= kSmallTileM ? kSmallTileM : kTileM;
  p.tile_n = kTileN;
  const int64_t tiles_m = ceil_div(g.m, p.tile_m);
  const int64_t tiles_n = ceil_div(g.n, p.tile_n);
  const int64_t tiles_per_batch = tiles_m * tiles_n;
  const int64_t tiles = g.batch * tiles_per_batch;
  if (tiles < sms_) {
    p.split_k = std::clamp<int64_t>(sms_ / tiles, 1, std::max<int64_t>(1, g.k / kMinSplitDepth));
  }
  const int64_t k_per_cta = ceil_div(g.k, p.split_k);
  p.ctas = tiles * p.split_k;
  p.waves = ceil_div(p.ctas, sms_);

  // Tensor cores compute whole tiles: the padding of edge tiles costs time, not energy.
  const double sm_flops =
      (tensor ? tensor_rate(op.input_type(0).dtype) : 2.0 * cuda_lane_ops_per_s_) / sms_;
  const double cta_compute_s =
      2.0 * static_cast<double>(p.tile_m * p.tile_n * k_per_cta) / sm_flops;

  // HBM bytes of one full wave: the operand panels its tiles cover (shared through L2 by a
  // swizzled raster of r x c tiles, or whole batch elements when a wave spans several), plus
  // the outputs (split-K adds an FP32 partial written and read back per slice).
  const int64_t wave_ctas = std::min<int64_t>(p.ctas, sms_);
  const int64_t wave_tiles = ceil_div(wave_ctas, p.split_k);
  double panel_bytes = 0.0;
  if (wave_tiles >= tiles_per_batch) {
    panel_bytes = static_cast<double>(wave_tiles) / static_cast<double>(tiles_per_batch) *
                  static_cast<double>((g.m + g.n) * g.k * in_bytes);
  } else {
    const auto side = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(wave_tiles))));
    int64_t r = std::min(tiles_m, side);
    const int64_t c = std::min(tiles_n, ceil_div(wave_tiles, r));
    r = std::min(tiles_m, ceil_div(wave_tiles, c));
    panel_bytes = static_cast<double>((std::min(r * p.tile_m, g.m) + std::min(c * p.tile_n, g.n)) *
                                      g.k * in_bytes);
  }
  const int64_t per_out = p.split_k == 1 ? out_bytes : out_bytes + 2 * kPartialBytes * p.split_k;
  const double tile_out_bytes =
      static_cast<double>(std::min(p.tile_m, g.m) * std::min(p.tile_n, g.n) * per_out);
  const double out_wave_bytes = static_cast<double>(wave_tiles) * tile_out_bytes;
  const double cta_bytes = (panel_bytes + out_wave_bytes) / static_cast<double>(wave_ctas);
  const double cta_memory_s = cta_bytes * sms_ / hbm_bytes_per_s_;

  p.per_wave = Time::from_seconds(std::max(cta_compute_s, cta_memory_s));
  p.bound = cta_compute_s >= cta_memory_s ? Bound::compute : Bound::memory;
  const double wave_scale = static_cast<double>(p.ctas) / static_cast<double>(wave_ctas);
  p.bytes_read = static_cast<int64_t>(std::llround(panel_bytes * wave_scale));
  p.bytes_written = static_cast<int64_t>(std::llround(out_wave_bytes * wave_scale));
  return p;
}

KernelPlan GpuModel::streaming_plan(const ir::Node& op, double lane_ops) const {
  KernelPlan p;
  p.sms = sms_;
  const int64_t out = op.outputs.empty() ? 0 : op.output().shape.elements();
  const int64_t in = op.input_types.empty() ? 0 : op.input_type(0).shape.elements();
  const int64_t elements = std::max(out, in);  // reductions read more than they write
  p.bytes_read = bytes_read(op);
  p.bytes_written = ir::total_bytes(op.outputs);
  if (elements == 0) {
    p.bound = Bound::latency;
    return p;
  }
  p.flops = static_cast<double>(elements) * lane_ops;
  const double compute_s = p.flops / cuda_lane_ops_per_s_;
  const double memory_s = static_cast<double>(p.bytes_read + p.bytes_written) / hbm_bytes_per_s_;
  p.ctas = std::min<int64_t>(ceil_div(elements, kElementsPerCta), sms_);
  p.waves = 1;
  p.per_wave = Time::from_seconds(std::max(compute_s, memory_s));
  p.bound = compute_s > memory_s ? Bound::compute : Bound::memory;
  return p;
}

Cost GpuModel::estimate(const ir::Node& op, AlgorithmId algorithm) const {
  const KernelPlan p = plan(op, algorithm);
  Cost c;
  c.time = p.total();
  c.bytes_read = p.bytes_read;
  c.bytes_written = p.bytes_written;
  c.bound = p.bound;
  const double compute_j = p.algorithm == kGpuTensorCore ? p.macs * spec_.energy_per_mac_j
                                                         : p.flops * spec_.energy_per_flop_j;
  c.energy = Energy::from_joules(compute_j + static_cast<double>(p.bytes_read + p.bytes_written) *
                                                 spec_.energy_per_hbm_byte_j);
  return c;
}

std::unique_ptr<HardwareModel> make_gpu_model(const GpuSpec& spec) {
  return std::make_unique<GpuModel>(spec);
}

std::vector<AlgorithmInfo> gpu_algorithms() {
  return {
      {"tensor_core",
       "matrix products in 128x128 CTA tiles on tensor cores, in waves over the SMs"},
      {"cuda_core",
       "element-wise ops and reductions on CUDA cores or HBM; matrix products as a fallback"},
      {"copy",
       "transpose, slice, concatenate, take, split at HBM bandwidth; nop/reshape are free views"},
  };
}

}  // namespace lightcode::hw
