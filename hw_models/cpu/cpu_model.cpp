#include "hw_models/cpu/cpu_model.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "sim/core/checked.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;

// Vector-lane operations per element at the non-FMA rate (vector_flops_per_cycle / 2 lanes
// per cycle). Estimates from instruction throughputs on AVX2/AVX-512 cores (Intel Optimization
// Reference Manual tables): divide and square root issue about 4x slower than add; exp, erf,
// tanh and sigmoid are ~10-15-instruction polynomials (as in SVML/SLEEF); power is exp(y*log x);
// softmax is max, subtract, exp, sum and divide per element. Data movement does no arithmetic.
double lane_ops_per_element(OpKind k) {
  switch (k) {
    case OpKind::nop:
    case OpKind::reshape:
    case OpKind::transpose:
    case OpKind::slice:
    case OpKind::concatenate:
    case OpKind::take:
    case OpKind::split:
      return 0.0;
    case OpKind::divide:
    case OpKind::sqrt:
    case OpKind::rsqrt:
      return 4.0;
    case OpKind::exp:
    case OpKind::erf:
    case OpKind::tanh:
    case OpKind::sigmoid:
      return 12.0;
    case OpKind::power:
      return 24.0;
    case OpKind::softmax:
      return 20.0;
    default:  // add, subtract, multiply, negative, relu, max, less, equal, where, cast, mean, sum
      return 1.0;
  }
}


// Bytes an op reads: its inputs, except that slice and take read only what they keep (plus
// take's indices) and reshapes are views.
int64_t bytes_read(const ir::Node& op) {
  if (is_view(op.kind)) return 0;
  if (op.kind == OpKind::slice) return ir::total_bytes(op.outputs);
  if (op.kind == OpKind::take) {
    return checked_add(ir::total_bytes(op.outputs), op.input_types.size() > 1 ? op.input_type(1).bytes() : 0,
                       "the bytes a take reads");
  }
  return ir::total_bytes(op.input_types);
}

int64_t bytes_written(const ir::Node& op) {
  return is_view(op.kind) ? 0 : ir::total_bytes(op.outputs);
}

int64_t largest_input_bytes(const ir::Node& op) {
  int64_t b = 0;
  for (const auto& t : op.input_types) b = std::max(b, t.bytes());
  return b;
}

class CpuModel final : public HardwareModel {
 public:
  explicit CpuModel(const CpuSpec& spec)
      : spec_(spec),
        cycle_s_(1.0 / spec.clock_hz),
        lane_ops_per_s_(spec.vector_flops_per_cycle / 2.0 * spec.clock_hz),
        gemm_flops_per_s_(spec.vector_flops_per_cycle * spec.clock_hz * spec.gemm_efficiency),
        core_bandwidth_(spec.memory_bandwidth / spec.cores) {
    by_kind_.fill(nullptr);
    for (const auto& [name, fit] : spec_.fits) {
      const OpKind k = ir::parse_op_kind(name);
      if (k == OpKind::other) {
        other_fits_.emplace_back(name, &fit);
      } else {
        by_kind_[static_cast<size_t>(k)] = &fit;
      }
    }
  }

  CpuModel(const CpuModel&) = delete;  // by_kind_ points into spec_
  CpuModel& operator=(const CpuModel&) = delete;

  Capabilities capabilities() const override {
    Capabilities c;
    c.role = TransferRole::cpu;
    c.clock_hz = spec_.clock_hz;
    return c;
  }
  int unit_count() const override { return spec_.cores; }

  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (ir::is_device_compute(op.kind)) list.add(find_fit(op) ? kCpuCalibrated : kCpuVector);
    return list;
  }

  std::string_view algorithm_name(AlgorithmId id) const override {
    return id == kCpuCalibrated ? "calibrated" : "vector";
  }

  Cost estimate(const ir::Node& op, AlgorithmId algorithm) const override {
    Cost c;
    c.bytes_read = bytes_read(op);
    c.bytes_written = bytes_written(op);
    const bool product = ir::is_matrix_product(op.kind);
    const auto macs = static_cast<double>(ir::node_macs(op));
    const LinearFit* fit = algorithm == kCpuCalibrated ? find_fit(op) : nullptr;
    double seconds = 0.0;
    if (fit) {
      seconds = fitted_seconds(*fit, op, macs);
      c.bound = Bound::compute;  // measured: whatever limited the real machine
    } else {
      const double memory_s = static_cast<double>(c.bytes_read + c.bytes_written) / core_bandwidth_;
      const double compute_s = product ? 2.0 * macs / (gemm_flops_per_s_ * dtype_rate(op))
                                       : work_elements(op) * lane_ops_per_element(op.kind) /
                                             (lane_ops_per_s_ * dtype_rate(op));
      seconds = std::max(compute_s, memory_s);
      c.bound = compute_s >= memory_s ? Bound::compute : Bound::memory;
    }
    if (seconds < cycle_s_) {  // dispatching any op takes at least a cycle
      seconds = cycle_s_;
      c.bound = Bound::latency;
    }
    c.time = Time::from_seconds(seconds);
    c.energy = product ? Energy::from_joules(macs * spec_.energy_per_mac_j)
                       : Energy::from_joules(seconds * spec_.clock_hz * spec_.energy_per_cycle_j);
    return c;
  }

  double static_power_watts() const override { return spec_.static_power_w; }

 private:
  const LinearFit* find_fit(const ir::Node& op) const {
    if (op.kind != OpKind::other) return by_kind_[static_cast<size_t>(op.kind)];
    for (const auto& [name, fit] : other_fits_) {
      if (name == op.kind_name) return fit;
    }
    return nullptr;
  }

  double fitted_seconds(const LinearFit& f, const ir::Node& op, double macs) const {
    const double work =
        f.work == LinearFit::Work::macs
            ? macs
            : static_cast<double>(op.outputs.empty() ? 0 : op.output().shape.elements());
    if (f.beyond_cache_points > 0 &&
        static_cast<double>(largest_input_bytes(op)) > spec_.cache_bytes) {
      return f.beyond_cache_per_work_s * work + f.beyond_cache_offset_s;
    }
    return f.per_work_s * work + f.offset_s;
  }

  // Elements an element-wise op or reduction touches: the larger of input 0 and output 0
  // (a reduction reads more than it writes; a broadcast writes more than it reads).
  static double work_elements(const ir::Node& op) {
    const int64_t out = op.outputs.empty() ? 0 : op.output().shape.elements();
    const int64_t in = op.input_types.empty() ? 0 : op.input_type(0).shape.elements();
    return static_cast<double>(std::max(out, in));
  }

  // Vector units run float64 at half the FP32 lane count; narrower types are charged the FP32
  // rate (they convert to FP32 for arithmetic on cores without native BF16/FP16 math).
  static double dtype_rate(const ir::Node& op) {
    const ir::DType t = op.input_types.empty() ? ir::DType::float32 : op.input_type(0).dtype;
    return t == ir::DType::float64 || t == ir::DType::int64 ? 0.5 : 1.0;
  }

  CpuSpec spec_;
  double cycle_s_;
  double lane_ops_per_s_;    // per core
  double gemm_flops_per_s_;  // per core, efficiency applied
  double core_bandwidth_;    // B/s per core
  std::array<const LinearFit*, ir::kOpKindCount> by_kind_{};
  std::vector<std::pair<std::string, const LinearFit*>> other_fits_;
};

}  // namespace

std::unique_ptr<HardwareModel> make_cpu_model(const CpuSpec& spec) {
  return std::make_unique<CpuModel>(spec);
}

std::vector<AlgorithmInfo> cpu_algorithms() {
  return {
      {"vector",
       "every op but memory/SRAM bookkeeping: SIMD lanes or memory bandwidth, whichever binds"},
      {"calibrated", "op kinds with a measured fit in the spec: time = per_work * work + offset"},
  };
}

}  // namespace lightcode::hw
