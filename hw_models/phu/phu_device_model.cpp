// Default-profile model of a PHU built from devices: one unit whose tiles and cores share each
// matrix product's tiles of work, timed and charged from event counts (photonic_work.hpp).
// Output [.., M, N] with reduction K (the first input's last dimension) is operand 1 (weights,
// N x K) times operand 2 (activations, K x M), batch = outputs / (M x N). Cost.energy is the
// laser, modulation, detection and memory energy, each also in Cost.parts (the report's rows
// for the unit; their DAC/ADC share is Cost.conversion_energy); the core's static power (ring
// tuning, buffers) is the unit's static power, charged over the makespan by the report.
// Precision (sim/ir/precision.hpp): a product requiring b bits runs on the core at b bits
// (PhotonicCore::at_precision), its event energies tabled once per width; one requiring more
// than the core's operand bits is not supported here; one with no requirement runs at the
// core's own bits.
#include <algorithm>
#include <vector>

#include "hw_models/phu/photonic_work.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"
#include "sim/ir/precision.hpp"

namespace lightcode::hw {
namespace {

class DevicePhuModel final : public HardwareModel {
 public:
  explicit DevicePhuModel(const PhotonicCore& core) {
    // Index b - 1 is the core at b bits; the last entry is the core itself.
    for (int bits = 1; bits < core.max_product_bits(); ++bits) {
      const PhotonicCore narrow = core.at_precision(bits);
      at_bits_.push_back({narrow, event_energies(narrow)});
    }
    at_bits_.push_back({core, event_energies(core)});
  }

  Capabilities capabilities() const override { return phu_capabilities(own().core.clock_hz); }
  int unit_count() const override { return 1; }

  AlgorithmList algorithms(const ir::Node& op) const override {
    const std::optional<int> bits = ir::required_bits(op);
    if (bits && *bits > own().core.max_product_bits()) return {};
    return phu_algorithms_for(op);
  }
  std::optional<int> max_product_bits() const override { return own().core.max_product_bits(); }
  std::string_view algorithm_name(AlgorithmId) const override { return "task_parallel"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    const ir::Shape& out = op.output().shape;
    ProductShape s;
    s.n1 = out.back();
    s.n2 = out.from_back(2);
    s.d = op.input_types.empty() ? 1 : op.input_type(0).shape.back();
    const int64_t per_product = s.n1 * s.n2;
    s.batch = per_product > 0 ? std::max<int64_t>(1, out.elements() / per_product) : 1;
    const int bits = ir::required_bits(op).value_or(own().core.max_product_bits());
    if (bits > own().core.max_product_bits()) {
      throw Error("internal: op '" + op.name + "' requires " + std::to_string(bits) +
                  " bits, above the photonic core's " +
                  std::to_string(own().core.max_product_bits()));
    }
    const AtBits& at = at_bits_[static_cast<size_t>(bits - 1)];
    const ProductCost p = photonic_product_cost(at.core, at.per_event, s, op.name);
    Cost c;
    c.time = Time::from_seconds(p.time_s);
    c.bound = p.memory_bound ? Bound::memory : Bound::compute;
    c.energy = Energy::from_joules(p.energy.dynamic_j());
    c.conversion_energy = Energy::from_joules(p.energy.conversion_j);
    c.parts[EnergyPart::laser] = Energy::from_joules(p.energy.laser_j);
    c.parts[EnergyPart::modulation] = Energy::from_joules(p.energy.modulation_j);
    c.parts[EnergyPart::detection] = Energy::from_joules(p.energy.detection_j);
    c.parts[EnergyPart::memory] = Energy::from_joules(p.energy.memory_j);
    c.bytes_read = ir::total_bytes(op.input_types);
    c.bytes_written = ir::total_bytes(op.outputs);
    return c;
  }

  // The core's own: ring tuning and buffers draw it at any precision.
  double static_power_watts() const override { return own().per_event.static_w; }

 private:
  struct AtBits {
    PhotonicCore core;
    EventEnergies per_event;
  };
  const AtBits& own() const { return at_bits_.back(); }  // the core at its own bits
  std::vector<AtBits> at_bits_;
};

}  // namespace

std::unique_ptr<HardwareModel> make_device_phu_model(const PhotonicCore& core) {
  return std::make_unique<DevicePhuModel>(core);
}

}  // namespace lightcode::hw
