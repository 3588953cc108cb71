#include "hw_models/gpu/gpu_model.hpp"

#include <algorithm>
#include <cmath>

#include "hw_models/gpu/gpu_kernel_fit.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;
using Stream = GpuModel::Stream;

// A streaming kernel is one grid-stride wave of at most one CTA per SM, 1024 elements each.
constexpr int64_t kElementsPerCta = 1024;


bool is_copy(OpKind k) {
  return is_view(k) || k == OpKind::transpose || k == OpKind::slice || k == OpKind::concatenate ||
         k == OpKind::take || k == OpKind::split;
}

// HBM bytes read: the inputs, except that slice and take read only what they keep (take
// also reads its indices).
int64_t hbm_bytes_read(const ir::Node& op) {
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

// The class whose fit a primitive op's kernel follows.
Stream stream_class(const ir::Node& op, int64_t in_elements, int64_t out_elements) {
  switch (op.kind) {
    case OpKind::take:
      return Stream::gather;
    case OpKind::transpose:
    case OpKind::slice:
    case OpKind::concatenate:
    case OpKind::split:
      return Stream::copy;
    case OpKind::softmax:
      return Stream::softmax;
    case OpKind::sigmoid:
    case OpKind::tanh:
    case OpKind::erf:
    case OpKind::exp:
      return Stream::activation;
    case OpKind::mean:
    case OpKind::sum:
    case OpKind::max:
      return out_elements < in_elements ? Stream::reduction : Stream::elementwise;
    default:
      return Stream::elementwise;
  }
}

const gpu_fit::StreamFit& fit_of(Stream c) {
  switch (c) {
    case Stream::reduction:
      return gpu_fit::kReduction;
    case Stream::softmax:
      return gpu_fit::kSoftmax;
    case Stream::rope:
      return gpu_fit::kRope;
    case Stream::activation:
      return gpu_fit::kActivation;
    case Stream::gather:
      return gpu_fit::kGather;
    case Stream::copy:
      return gpu_fit::kCopy;
    case Stream::elementwise:
      break;
  }
  return gpu_fit::kElementwise;
}

int64_t rows_of(const ir::Shape& s) {
  return s.rank() == 0 || s.back() <= 0 ? 1 : s.elements() / s.back();
}

}  // namespace

// FP32-lane-op equivalents per element. Transcendentals run on the SFUs (sfus_per_sm per SM
// per clock against fp32_cores_per_sm lanes), so one SFU op counts lanes / SFUs; divide is a
// reciprocal and a multiply; erf is a ~10-FMA polynomial; softmax = max, subtract, exp, sum,
// divide.
double gpu_lane_ops_per_element(OpKind k, double sfu_cost) {
  switch (k) {
    case OpKind::sqrt:
    case OpKind::rsqrt:
    case OpKind::exp:
    case OpKind::tanh:
      return sfu_cost;
    case OpKind::divide:
    case OpKind::erf:
      return sfu_cost + 2.0;
    case OpKind::sigmoid:
    case OpKind::power:
      return 2.0 * sfu_cost + 1.0;
    case OpKind::softmax:
      return sfu_cost * 2.0 + 5.0;
    default:  // add, subtract, multiply, negative, relu, max, less, equal, where, cast, mean, sum
      return 1.0;
  }
}

GpuModel::GpuModel(const GpuSpec& spec)
    : spec_(spec),
      sms_(spec.sms()),
      cuda_lane_ops_per_s_(static_cast<double>(spec.fp32_cores_per_sm) * spec.sms() *
                           spec.clock_hz),
      hbm_bytes_per_s_(spec.hbm_bandwidth) {
  // Tensor figures are quoted for tensor_throughput_sms SMs; the per-SM rate is what holds.
  const double sm_scale = spec_.tensor_throughput_sms > 0
                              ? static_cast<double>(sms_) / spec_.tensor_throughput_sms
                              : 1.0;
  for (const auto& [dtype, flops] : spec_.tensor_flops) {
    tensor_flops_[static_cast<size_t>(dtype)] = flops * sm_scale;
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
  // Energy per MAC at the dtype's datasheet rate, whatever the SM count (fewer SMs lower the
  // rate, not the energy per MAC).
  for (size_t d = 0; d < tensor_flops_.size(); ++d) {
    if (tensor_flops_[d] > 0.0) tensor_mac_j_[d] = spec_.tensor_mac_energy_j(tensor_flops_[d] / sm_scale);
  }
}

double GpuModel::tensor_rate(ir::DType t) const {
  return tensor_flops_[static_cast<size_t>(t)];
}

AlgorithmList GpuModel::algorithms(const ir::Node& op) const {
  AlgorithmList list;
  if (!ir::is_device_compute(op.kind)) return list;
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
    case kGpuFused:
      return "fused";
    default:
      return "?";
  }
}

KernelPlan GpuModel::plan(const ir::Node& op, AlgorithmId algorithm) const {
  KernelPlan p;
  if (ir::is_matrix_product(op.kind)) {
    const bool tensor = algorithm == kGpuTensorCore && !op.input_types.empty() &&
                        tensor_rate(op.input_type(0).dtype) > 0.0;
    const GemmDims g = gemm_dims(op);
    const GemmWork w = GemmWork::of(g.batch, g.m, g.n, g.k, op.input_types, op.outputs);
    p = gemm_plan(w, tensor, op.input_types.empty() ? ir::DType::float32 : op.input_type(0).dtype);
    p.algorithm = tensor ? kGpuTensorCore : kGpuCudaCore;
  } else if (is_view(op.kind)) {
    p.algorithm = kGpuCopy;
    p.sms = sms_;
    p.bound = Bound::latency;  // a view: no kernel, no launch
    return p;
  } else {
    const int64_t out = op.outputs.empty() ? 0 : op.output().shape.elements();
    const int64_t in = op.input_types.empty() ? 0 : op.input_type(0).shape.elements();
    StreamWork w;
    w.bytes_read = static_cast<double>(hbm_bytes_read(op));
    w.bytes_written = static_cast<double>(ir::total_bytes(op.outputs));
    w.elements = std::max(out, in);  // reductions read more than they write
    w.rows = out >= in ? (op.outputs.empty() ? 1 : rows_of(op.output().shape))
                       : rows_of(op.input_type(0).shape);
    const double sfu_cost = static_cast<double>(spec_.fp32_cores_per_sm) / spec_.sfus_per_sm;
    w.lane_ops = is_copy(op.kind) ? 0.0
                                  : static_cast<double>(w.elements) *
                                        gpu_lane_ops_per_element(op.kind, sfu_cost);
    p = stream_plan(w, stream_class(op, in, out));
    p.algorithm = is_copy(op.kind) ? kGpuCopy : kGpuCudaCore;
  }
  return finish(p);
}

GpuModel::GemmWork GpuModel::GemmWork::of(int64_t batch, int64_t m, int64_t n, int64_t k,
                                          const std::vector<ir::TensorType>& inputs,
                                          const std::vector<ir::TensorType>& outputs) {
  GemmWork w;
  w.batch = batch;
  w.m = m;
  w.n = n;
  w.k = k;
  w.read_bytes = static_cast<double>(ir::total_bytes(inputs));
  w.write_bytes = static_cast<double>(ir::total_bytes(outputs));
  return w;
}

KernelPlan GpuModel::stream_plan(const StreamWork& w, Stream cls) const {
  KernelPlan p;
  p.sms = sms_;
  p.bytes_read = static_cast<int64_t>(std::llround(w.bytes_read));
  p.bytes_written = static_cast<int64_t>(std::llround(w.bytes_written));
  p.flops = w.lane_ops;
  if (w.elements <= 0) {
    p.bound = Bound::latency;
    return p;
  }
  const gpu_fit::StreamFit& fit = fit_of(cls);
  const double bytes = w.bytes_read + w.bytes_written;
  const double memory_s = bytes / (hbm_bytes_per_s_ * fit.hbm_fraction);
  const double row_s =
      bytes / static_cast<double>(std::max<int64_t>(1, w.rows)) / fit.row_bandwidth;
  const double compute_s = w.lane_ops / cuda_lane_ops_per_s_;
  p.ctas = std::min<int64_t>(ceil_div(w.elements, kElementsPerCta), sms_);
  p.waves = 1;
  p.per_wave = Time::from_seconds(std::max({memory_s, row_s, compute_s}));
  p.last_wave = p.per_wave;
  p.latency = Time::from_seconds(fit.latency_s);
  p.bound = compute_s > std::max(memory_s, row_s) ? Bound::compute
            : memory_s >= row_s                   ? Bound::memory
                                                  : Bound::latency;
  return p;
}

KernelPlan GpuModel::finish(KernelPlan p) const {
  if (p.ctas == 0 && p.latency == Time::zero()) return p;  // no kernel runs
  // The power limit: the board draws static + active + dynamic energy / time while the kernel
  // runs; above the limit the clock drops until it does not (power_limit > static + active,
  // checked by the spec).
  const double headroom_w = spec_.power_limit_w - spec_.static_power_w - spec_.active_power_w;
  const double kernel_s = p.kernel().seconds();
  const double dynamic_j = spec_.power_limit_w > 0.0 ? dynamic_energy(p).total().joules() : 0.0;
  if (spec_.power_limit_w > 0.0 && kernel_s > 0.0 && dynamic_j > headroom_w * kernel_s) {
    const double stretch = dynamic_j / (headroom_w * kernel_s);
    const auto scaled = [stretch](Time t) { return Time::from_seconds(t.seconds() * stretch); };
    p.per_wave = scaled(p.per_wave);
    p.last_wave = scaled(p.last_wave);
    p.latency = scaled(p.latency);
    p.clock_scale = 1.0 / stretch;
    p.bound = Bound::power;
  }
  p.runtime_overhead = spec_.runtime->overhead(p.kernel(), spec_.timing);
  if (p.runtime_overhead > p.kernel()) p.bound = Bound::latency;
  return p;
}

EnergyParts GpuModel::dynamic_energy(const KernelPlan& p) const {
  EnergyParts e;
  // Tensor-core MACs at the dtype's energy, the rest of the arithmetic (CUDA-core products,
  // element-wise work, fused epilogues) at the CUDA cores'.
  const bool tensor = p.algorithm == kGpuTensorCore ||
                      (p.algorithm == kGpuFused && p.macs > 0.0 && tensor_rate(p.dtype) > 0.0);
  e[EnergyPart::tensor_cores] =
      Energy::from_joules(tensor ? p.macs * tensor_mac_j_[static_cast<size_t>(p.dtype)] : 0.0);
  e[EnergyPart::cuda_cores] = Energy::from_joules(
      (tensor ? std::max(0.0, p.flops - 2.0 * p.macs) : p.flops) * spec_.energy_per_flop_j);
  e[EnergyPart::hbm] =
      Energy::from_joules(static_cast<double>(p.bytes_read + p.bytes_written) * spec_.energy_per_hbm_byte_j);
  return e;
}

Cost GpuModel::cost_of(const KernelPlan& p) const {
  Cost c;
  c.time = p.total();
  c.bytes_read = p.bytes_read;
  c.bytes_written = p.bytes_written;
  c.bound = p.bound;
  c.parts = dynamic_energy(p);
  c.parts[EnergyPart::active] = Energy::from_joules(spec_.active_power_w * p.kernel().seconds());
  c.energy = c.parts.total();
  return c;
}

Cost GpuModel::estimate(const ir::Node& op, AlgorithmId algorithm) const {
  return cost_of(plan(op, algorithm));
}

bool GpuModel::fuses(std::string_view rule) const {
  if (spec_.fuse_all) return true;
  return std::find(spec_.fusion.begin(), spec_.fusion.end(), rule) != spec_.fusion.end();
}

std::unique_ptr<HardwareModel> make_gpu_model(const GpuSpec& spec) {
  return std::make_unique<GpuModel>(spec);
}

std::vector<AlgorithmInfo> gpu_algorithms() {
  return {
      {"tensor_core",
       "matrix products on tensor cores: the fastest of a library's tile shapes (64x64 .. "
       "256x128) and split-K plans, in waves over the SMs"},
      {"cuda_core",
       "element-wise ops and reductions (per-class achieved bandwidth); matrix products as a "
       "fallback"},
      {"copy",
       "transpose, slice, concatenate, take, split at HBM bandwidth; nop/reshape are free views"},
      {"fused",
       "a fused group: GEMM with epilogue or horizontal GEMM, FlashAttention-style attention, "
       "norm, rotary or activation as one kernel"},
  };
}

}  // namespace lightcode::hw
