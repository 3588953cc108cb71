#include "hw_models/lightcode/lightcode_models.hpp"

#include <cmath>

#include "hw_models/lightcode/lightcode_constants.hpp"
#include "hw_models/memory/memory_model.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;

int64_t output_elements(const ir::Node& op) { return op.output().shape.elements(); }
int64_t last_input_dim(const ir::Node& op) {
  return op.input_types.empty() ? 1 : op.input_type(0).shape.back();
}

Cost make_cost(double seconds, double picojoules, Bound bound) {
  Cost c;
  c.time = Time::from_seconds(seconds);
  c.energy = Energy::pj(picojoules);
  c.bound = bound;
  return c;
}

class LightcodeCpu final : public HardwareModel {
 public:
  explicit LightcodeCpu(const CpuSpec& spec) : cores_(spec.cores), clock_hz_(spec.clock_hz) {}

  Capabilities capabilities() const override {
    Capabilities c;
    c.role = TransferRole::cpu;
    c.clock_hz = clock_hz_;
    return c;
  }
  int unit_count() const override { return cores_; }
  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    // Expanded 2-D products exist only on the PHU.
    if (!ir::is_bookkeeping(op.kind) && op.kind != OpKind::matrix_matrix) list.add(0);
    return list;
  }
  std::string_view algorithm_name(AlgorithmId) const override { return "lightcode"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    const auto n_out = static_cast<double>(output_elements(op));
    switch (op.kind) {
      case OpKind::add: {
        const double t = add_seconds(n_out);
        return make_cost(t, t * clock_hz_ * lc::kCpuEnergyPerCyclePj, Bound::compute);
      }
      case OpKind::dense: case OpKind::matmul: case OpKind::pack: {
        const auto macs = static_cast<double>(ir::node_macs(op));
        const bool big = any_input_dim_above(op, lc::kBigMatmulDimension);
        const double t = big ? lc::kBigMatmulSecondsPerMac * macs + lc::kBigMatmulSecondsOffset
                             : lc::kMatmulSecondsPerMac * macs + lc::kMatmulSecondsOffset;
        return make_cost(t, macs * lc::kCpuEnergyPerMacPj, Bound::compute);
      }
      case OpKind::mean: {
        const ir::Shape& in = op.input_type(0).shape;
        const double cycles = static_cast<double>((in.back() + 1) * in.from_back(2));
        // Quirk: mean's energy is not its cycles but 1 pJ per output element, as for the
        // element-wise kinds (the reference calls it "the add formula"; the seed energies are
        // exact only this way).
        return make_cost(cycles / clock_hz_, n_out * lc::kCpuEnergyPerCyclePj, Bound::compute);
      }
      case OpKind::split:
        // TVM's split: one cycle, and no energy (the seed energies are exact only this way).
        return make_cost(1.0 / clock_hz_, 0.0, Bound::latency);
      default: {
        const double cycles = cycles_of(op.kind, n_out);
        return make_cost(cycles / clock_hz_, cycles * lc::kCpuEnergyPerCyclePj, Bound::compute);
      }
    }
  }

 private:
  static double add_seconds(double n_out) {
    return lc::kAddSecondsPerElement * n_out + lc::kAddSecondsOffset;
  }
  static bool any_input_dim_above(const ir::Node& op, int64_t limit) {
    for (const auto& t : op.input_types) {
      for (int64_t d : t.shape) {
        if (d > limit) return true;
      }
    }
    return false;
  }
  static double cycles_of(OpKind kind, double n_out) {
    switch (kind) {
      case OpKind::subtract: case OpKind::multiply: case OpKind::divide: case OpKind::sqrt:
      case OpKind::rsqrt: case OpKind::power: case OpKind::transpose: case OpKind::negative:
      case OpKind::cast: case OpKind::equal:
        return n_out;
      case OpKind::relu:
        return 2 * n_out;
      case OpKind::tanh: case OpKind::sigmoid:
        return 4 * n_out;
      case OpKind::softmax:
        return 6 * n_out;
      default:  // nop, less, take, where, erf, slice, concatenate, and unlisted kinds
        return 1;
    }
  }

  int cores_;
  double clock_hz_;
};

class LightcodePhu final : public HardwareModel {
 public:
  explicit LightcodePhu(const PhuSpec& spec)
      : cores_(spec.cores), multiplex_(spec.multiplex), clock_hz_(spec.clock_hz) {}

  Capabilities capabilities() const override {
    Capabilities c;
    c.photonic = true;
    c.residence = Residence::sram;
    c.role = TransferRole::phu;
    c.clock_hz = clock_hz_;
    return c;
  }
  int unit_count() const override { return static_cast<int>(cores_); }
  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (ir::is_matrix_product(op.kind)) list.add(0);
    return list;
  }
  std::string_view algorithm_name(AlgorithmId) const override { return "task_parallel"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    const int64_t n_out = output_elements(op);
    const int64_t per_wavelength = (n_out + multiplex_ - 1) / multiplex_;
    const int64_t per_core = (per_wavelength + cores_ - 1) / cores_;
    const auto cycles = static_cast<double>(per_core * last_input_dim(op));
    const auto macs = static_cast<double>(ir::node_macs(op));
    return make_cost(cycles / clock_hz_, macs * lc::kPhuEnergyPerMacPj, Bound::compute);
  }

 private:
  int64_t cores_;
  int64_t multiplex_;
  double clock_hz_;
};

// HBM, SRAM and the start pseudo-unit: the original's bookkeeping nodes.
class LightcodeMemory final : public HardwareModel {
 public:
  LightcodeMemory(const Capabilities& capabilities, OpKind first, OpKind second)
      : capabilities_(capabilities), first_(first), second_(second) {}

  Capabilities capabilities() const override { return capabilities_; }
  int unit_count() const override { return 1; }
  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (op.kind == first_ || op.kind == second_) list.add(0);
    return list;
  }
  std::string_view algorithm_name(AlgorithmId) const override { return "lightcode"; }
  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    if (op.kind == OpKind::memory) {
      // Weights are preloaded: no time, but every element is read and moved once.
      return make_cost(0.0, static_cast<double>(output_elements(op)) * lc::kHbmEnergyPerElementPj,
                       Bound::memory);
    }
    if (op.kind == OpKind::start) return make_cost(lc::kStartSeconds, lc::kStartEnergyPj, Bound::latency);
    return make_cost(1.0 / lc::kSramClockHz, lc::kSramOpEnergyPj, Bound::latency);
  }

 private:
  Capabilities capabilities_;
  OpKind first_;
  OpKind second_;
};

}  // namespace

std::unique_ptr<HardwareModel> make_lightcode_cpu(const CpuSpec& spec) {
  return std::make_unique<LightcodeCpu>(spec);
}
std::unique_ptr<HardwareModel> make_lightcode_phu(const PhuSpec& spec) {
  return std::make_unique<LightcodePhu>(spec);
}
std::unique_ptr<HardwareModel> make_lightcode_memory(const MemorySpec& spec) {
  if (spec.level == MemoryLevel::hbm) {
    return std::make_unique<LightcodeMemory>(memory_capabilities(spec.level), OpKind::memory, OpKind::memory);
  }
  return std::make_unique<LightcodeMemory>(memory_capabilities(spec.level), OpKind::sram_split, OpKind::sram_merge);
}
std::unique_ptr<HardwareModel> make_lightcode_start() {
  Capabilities c;
  c.residence = Residence::none;
  c.role = TransferRole::start;
  c.category = EnergyCategory::memory;
  return std::make_unique<LightcodeMemory>(c, OpKind::start, OpKind::start);
}

}  // namespace lightcode::hw
