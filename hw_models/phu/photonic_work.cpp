#include "hw_models/phu/photonic_work.hpp"

#include <algorithm>
#include <string>

#include "sim/core/checked.hpp"

namespace lightcode::hw {
namespace {


// Energy of one access of `bits` bits at `level`: LT gives energies per 2-byte access and
// scales them by bits / 16.
double access_j(const Device& level, int bits) {
  return level.access_energy_j * (static_cast<double>(bits) / (8.0 * level.access_bytes));
}

}  // namespace

EventEnergies event_energies(const PhotonicCore& c) {
  EventEnergies e;
  const double cycle_s = 1.0 / c.clock_hz;
  e.laser_core_cycle_j = c.laser_power_per_core_w() * cycle_s;
  e.weight_dac_j = c.dac_power_w(c.weight_bits) * cycle_s;
  e.input_dac_j = c.dac_power_w(c.input_bits) * cycle_s;
  e.modulator_j = c.modulator_power_w() * cycle_s;
  e.node_cycle_j = c.detectors_per_node * c.photodetector.power_w * cycle_s;
  e.adc_j = c.adc_power_w() * cycle_s;
  e.tia_adder_j = (c.tia.power_w + c.adder.power_w) * cycle_s;
  e.static_w = c.static_power_w();
  if (c.memory_levels.present) {
    const MemoryLevels& m = c.memory_levels;
    for (const Device* level : {&m.dram, &m.global_buffer_2, &m.global_buffer_1, &m.noc}) {
      e.weight_through_j += access_j(*level, c.weight_bits);
      e.input_through_j += access_j(*level, c.input_bits);
      e.output_through_j += access_j(*level, c.output_bits);
    }
    e.weight_rf_j = access_j(m.register_file, c.weight_bits);
    e.input_rf_j = access_j(m.register_file, c.input_bits);
  }
  return e;
}

ProductCost photonic_product_cost(const PhotonicCore& c, const ProductShape& s,
                                  std::string_view op_name) {
  return photonic_product_cost(c, event_energies(c), s, op_name);
}

ProductCost photonic_product_cost(const PhotonicCore& c, const EventEnergies& per,
                                  const ProductShape& s, std::string_view op_name) {
  ProductCost r;
  const auto overflow = [&] {
    return "the photonic core-cycles of op '" + std::string(op_name) + "'";
  };
  const int64_t iter_n1 = ceil_div(s.n1, c.height);
  const int64_t iter_n2 = ceil_div(s.n2, c.width);
  const int64_t iter_d = ceil_div(s.d, c.wavelengths);
  r.core_cycles = checked_mul(
      checked_mul(checked_mul(iter_n1, iter_n2, overflow), iter_d, overflow), s.batch, overflow);
  r.cycles = ceil_div(r.core_cycles, c.cores());
  r.compute_s = static_cast<double>(r.cycles) / c.clock_hz;
  if (c.dram_bandwidth > 0.0) {
    const double operand_bytes =
        (static_cast<double>(s.n1) * static_cast<double>(s.d) * static_cast<double>(c.weight_bits) +
         static_cast<double>(s.d) * static_cast<double>(s.n2) * static_cast<double>(c.input_bits)) /
        8.0 * static_cast<double>(s.batch);
    r.preload_s = operand_bytes / c.dram_bandwidth;
  }
  r.memory_bound = r.preload_s > r.compute_s;
  r.time_s = std::max(r.compute_s, r.preload_s);

  // Event counts of one batch element, as doubles: they only scale energies.
  const auto n1 = static_cast<double>(s.n1);
  const auto n2 = static_cast<double>(s.n2);
  const auto d = static_cast<double>(s.d);
  const auto batch = static_cast<double>(s.batch);
  const double operand1_events = n1 * d * static_cast<double>(iter_n2);
  const double operand2_events =
      static_cast<double>(iter_n1) * n2 * d / (c.broadcast_operand2 ? c.tiles : 1);
  const int64_t group = c.share_readout ? c.cores_per_tile : 1;
  r.readout_period = static_cast<int>(
      std::min<int64_t>(c.temporal_accumulation, ceil_div(s.d, group * c.wavelengths)));
  const double readouts =
      n1 * n2 * static_cast<double>(ceil_div(ceil_div(iter_d, r.readout_period), group));
  const double node_cycles = n1 * n2 * static_cast<double>(iter_d);

  PhotonicEnergy& e = r.energy;
  e.laser_j = static_cast<double>(r.core_cycles) * per.laser_core_cycle_j;
  const double dac_j = operand1_events * per.weight_dac_j + operand2_events * per.input_dac_j;
  const double adc_j = readouts * per.adc_j;
  e.modulation_j = batch * (dac_j + (operand1_events + operand2_events) * per.modulator_j);
  e.detection_j = batch * (node_cycles * per.node_cycle_j + readouts * per.tia_adder_j + adc_j);
  e.conversion_j = batch * (dac_j + adc_j);
  // Operands and outputs cross DRAM, both global-buffer levels and the NoC once; every
  // conversion reads its value from the register file (an inference, see the header).
  e.memory_j = batch * (n1 * d * per.weight_through_j + d * n2 * per.input_through_j +
                        n1 * n2 * per.output_through_j + operand1_events * per.weight_rf_j +
                        operand2_events * per.input_rf_j);
  e.static_j = per.static_w * r.time_s;
  return r;
}

}  // namespace lightcode::hw
