#include "hw_models/lightcode/lightcode_models.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "hw_models/lightcode/lightcode_constants.hpp"
#include "hw_models/memory/memory_model.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;

int64_t output_elements(const ir::Node& op) {
  return op.output().shape.elements();
}
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

// One of the original's linear fits, read from the CPU spec's `fits:` (cpu_lightcode.yaml).
struct LcFit {
  double per_work_s = 0.0;
  double offset_s = 0.0;
  double big_per_work_s = 0.0;  // the regime for ops with an input dim above 50000
  double big_offset_s = 0.0;
};

// The original's fits are of fixed form: `add` per output element; dense, batch_matmul and
// pack per MAC with a second regime. A spec whose fit says otherwise cannot be this model.
LcFit read_fit(const Params& cpu, const std::string& kind, bool per_mac) {
  for (const auto& [name, fit] : cpu.named("fits")) {
    if (name != kind) continue;
    LcFit f;
    f.per_work_s = fit.quantity("per_work");
    f.offset_s = fit.quantity("offset");
    if ((fit.choice("work") == "macs") != per_mac) {
      fit.at("work").fail(std::string("the lightcode profile's `") + kind + "` fit counts " +
                          (per_mac ? "macs" : "elements") + ", as the original's does");
    }
    if (!per_mac) return f;
    const auto big = fit.has("beyond_cache") && fit.at("beyond_cache").is_map()
                         ? fit.table_if("beyond_cache")
                         : std::nullopt;
    if (!big) {
      fit.node().fail("the lightcode profile needs `beyond_cache:` on the `" + kind +
                      "` fit: the original's regime for ops with an input dimension above 50000");
    }
    f.big_per_work_s = big->quantity("per_work");
    f.big_offset_s = big->quantity("offset");
    return f;
  }
  cpu.node().fail("the lightcode profile needs `fits: {" + kind +
                  ": ...}`: the original's measured " + (per_mac ? "matrix-product" : "`add`") +
                  " fit");
}

class LightcodeCpu final : public HardwareModel {
 public:
  explicit LightcodeCpu(const Params& spec)
      : cores_(static_cast<int>(spec.count("cores"))),
        clock_hz_(spec.quantity("clock")),
        energy_per_cycle_pj_(spec.quantity("energy_per_cycle") * kPicojoulesPerJoule),
        energy_per_mac_pj_(spec.quantity("energy_per_mac") * kPicojoulesPerJoule),
        add_(read_fit(spec, "add", false)),
        dense_(read_fit(spec, "dense", true)),
        matmul_(read_fit(spec, "matmul", true)),
        pack_(read_fit(spec, "pack", true)) {}

  Capabilities capabilities() const override {
    Capabilities c;
    c.role = TransferRole::cpu;
    c.clock_hz = clock_hz_;
    return c;
  }
  int unit_count() const override { return cores_; }
  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (listed(op)) list.add(0);
    return list;
  }
  std::string_view algorithm_name(AlgorithmId) const override { return "lightcode"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    const auto n_out = static_cast<double>(output_elements(op));
    switch (op.kind) {
      case OpKind::add: {
        const double t = add_.per_work_s * n_out + add_.offset_s;
        return make_cost(t, t * clock_hz_ * energy_per_cycle_pj_, Bound::compute);
      }
      case OpKind::dense:
      case OpKind::matmul:
      case OpKind::pack: {
        const LcFit& fit = op.kind == OpKind::dense    ? dense_
                           : op.kind == OpKind::matmul ? matmul_
                                                       : pack_;
        const auto macs = static_cast<double>(ir::node_macs(op));
        const bool big = any_input_dim_above(op, lc::kBigMatmulDimension);
        const double t = big ? fit.big_per_work_s * macs + fit.big_offset_s
                             : fit.per_work_s * macs + fit.offset_s;
        return make_cost(t, macs * energy_per_mac_pj_, Bound::compute);
      }
      case OpKind::mean: {
        const ir::Shape& in = op.input_type(0).shape;
        const double cycles = static_cast<double>((in.back() + 1) * in.from_back(2));
        // Quirk: mean's energy is not its cycles but 1 pJ per output element, as for the
        // element-wise kinds (the reference calls it "the add formula"; the seed energies are
        // exact only this way).
        return make_cost(cycles / clock_hz_, n_out * energy_per_cycle_pj_, Bound::compute);
      }
      default: {
        // broadcast_to (`to`) and scatter_nd (`nd`): n_out cycles, like the element-count ops.
        const double cycles = op.kind == OpKind::other && (op.kind_name == "to" || op.kind_name == "nd")
                                  ? n_out
                                  : cycles_of(op.kind, n_out);
        return make_cost(cycles / clock_hz_, cycles * energy_per_cycle_pj_, Bound::compute);
      }
    }
  }

 private:
  static bool any_input_dim_above(const ir::Node& op, int64_t limit) {
    for (const auto& t : op.input_types) {
      for (int64_t d : t.shape) {
        if (d > limit) return true;
      }
    }
    return false;
  }
  // The kinds the original's CPU has an algorithm for (fact); any other kind has no candidate,
  // so selection fails naming the op, as the original's does. Expanded 2-D products run only
  // on the PHU and TVM's split only on SRAM.
  static bool listed(const ir::Node& op) {
    switch (op.kind) {
      case OpKind::add: case OpKind::subtract: case OpKind::multiply: case OpKind::divide:
      case OpKind::sqrt: case OpKind::rsqrt: case OpKind::power: case OpKind::transpose:
      case OpKind::negative: case OpKind::cast: case OpKind::equal: case OpKind::relu:
      case OpKind::tanh: case OpKind::sigmoid: case OpKind::softmax: case OpKind::nop:
      case OpKind::less: case OpKind::take: case OpKind::where: case OpKind::erf:
      case OpKind::slice: case OpKind::concatenate: case OpKind::mean: case OpKind::dense:
      case OpKind::matmul: case OpKind::pack:
        return true;
      case OpKind::other:
        return op.kind_name == "to" || op.kind_name == "nd";
      default:
        return false;
    }
  }

  static double cycles_of(OpKind kind, double n_out) {
    switch (kind) {
      case OpKind::subtract:
      case OpKind::multiply:
      case OpKind::divide:
      case OpKind::sqrt:
      case OpKind::rsqrt:
      case OpKind::power:
      case OpKind::transpose:
      case OpKind::negative:
      case OpKind::cast:
      case OpKind::equal:
        return n_out;
      case OpKind::relu:
        return 2 * n_out;
      case OpKind::tanh:
      case OpKind::sigmoid:
        return 4 * n_out;
      case OpKind::softmax:
        return 6 * n_out;
      default:  // nop, less, take, where, erf, slice, concatenate
        return 1;
    }
  }

  int cores_;
  double clock_hz_;
  double energy_per_cycle_pj_;
  double energy_per_mac_pj_;
  LcFit add_, dense_, matmul_, pack_;
};

class LightcodePhu final : public HardwareModel {
 public:
  explicit LightcodePhu(const Params& spec)
      : cores_(spec.count("cores")),
        multiplex_(spec.count("multiplex")),
        clock_hz_(spec.quantity("clock")),
        energy_per_mac_pj_(spec.quantity("energy_per_mac") * kPicojoulesPerJoule) {}

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
    return make_cost(cycles / clock_hz_, macs * energy_per_mac_pj_, Bound::compute);
  }

 private:
  int64_t cores_;
  int64_t multiplex_;
  double clock_hz_;
  double energy_per_mac_pj_;
};

// HBM, SRAM and the start pseudo-unit: the original's bookkeeping nodes.
class LightcodeMemory final : public HardwareModel {
 public:
  // `energy_pj`: per element of a `memory` node (HBM), or per op (SRAM, start); `seconds`: per
  // op (a `memory` node takes none: weights are preloaded).
  LightcodeMemory(const Capabilities& capabilities, std::vector<OpKind> kinds, double seconds, double energy_pj)
      : capabilities_(capabilities), kinds_(std::move(kinds)), seconds_(seconds), energy_pj_(energy_pj) {}

  Capabilities capabilities() const override { return capabilities_; }
  int unit_count() const override { return 1; }
  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (std::find(kinds_.begin(), kinds_.end(), op.kind) != kinds_.end()) list.add(0);
    return list;
  }
  std::string_view algorithm_name(AlgorithmId) const override { return "lightcode"; }
  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    if (op.kind == OpKind::memory) {
      // Weights are preloaded: no time, but every element is read and moved once.
      return make_cost(0.0, static_cast<double>(output_elements(op)) * energy_pj_, Bound::memory);
    }
    return make_cost(seconds_, energy_pj_, Bound::latency);
  }

 private:
  Capabilities capabilities_;
  std::vector<OpKind> kinds_;
  double seconds_;
  double energy_pj_;
};

}  // namespace

std::unique_ptr<HardwareModel> make_lightcode_cpu(const Params& spec) {
  return std::make_unique<LightcodeCpu>(spec);
}
std::unique_ptr<HardwareModel> make_lightcode_phu(const Params& spec) {
  return std::make_unique<LightcodePhu>(require_per_number_phu(spec));
}
std::unique_ptr<HardwareModel> make_lightcode_memory(const Params& spec) {
  const MemoryLevel level = memory_level(spec);
  if (level == MemoryLevel::hbm) {
    // A memory node: the preload and the read of every number (160 + 40 pJ).
    const double pj = spec.quantity("preload_energy") * kPicojoulesPerJoule +
                      spec.quantity("read_energy") * kPicojoulesPerJoule;
    return std::make_unique<LightcodeMemory>(memory_capabilities(MemoryLevel::hbm),
                                             std::vector<OpKind>{OpKind::memory}, 0.0, pj);
  }
  if (level != MemoryLevel::sram)
    spec.at("level").fail("the lightcode profile has an hbm and an sram, not a " + spec.choice("level"));
  const double clock_hz = spec.quantity("clock");
  // The expansion's split and merge, and TVM's split (an SRAM algorithm in the original).
  return std::make_unique<LightcodeMemory>(
      memory_capabilities(MemoryLevel::sram, clock_hz),
      std::vector<OpKind>{OpKind::sram_split, OpKind::sram_merge, OpKind::split}, 1.0 / clock_hz,
      spec.quantity("op_energy") * kPicojoulesPerJoule);
}
std::unique_ptr<HardwareModel> make_lightcode_start() {
  Capabilities c;
  c.residence = Residence::none;
  c.role = TransferRole::start;
  c.category = EnergyCategory::memory;
  c.roles = {Role::start};
  // The original's `start`: no time, no energy, not a node of the final graph.
  return std::make_unique<LightcodeMemory>(c, std::vector<OpKind>{OpKind::start}, 0.0, 0.0);
}

}  // namespace lightcode::hw
