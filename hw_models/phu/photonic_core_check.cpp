// Every figure a device-built core derives is finite, or the core is refused where it is read:
// a device figure of 1e308 J/bit, a 1e300 GHz clock or a 1e5 dB loss would otherwise print and
// store inf W (`hw show`, `validate-photonic`) or reach the cost model as inf J per event.
// A figure that is not finite is blamed on the input it reads that lies farthest from ordinary
// magnitudes (its decimal exponent; a dB figure's value / 10, since it enters as 10^(dB/10)):
// 1e308 J/bit against a 5 GHz clock is the energy, 450 fJ/bit against 1e300 Hz the clock. The
// error stands at that input's key: a device's in its library file, or the core's own.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hw_models/phu/photonic_core.hpp"
#include "hw_models/phu/photonic_work.hpp"

namespace lightcode::hw {
namespace {

// An input of a derived figure: a device's key, or (device nullptr) a key of the core.
struct Input {
  const Device* device;
  const char* key;
  double value;
  bool decibels = false;
};

double reach(const Input& in) {
  if (in.value == 0.0) return 0.0;  // a zero overflows nothing
  return in.decibels ? std::fabs(in.value) / 10.0 : std::fabs(std::log10(std::fabs(in.value)));
}

struct Checker {
  const PhotonicCore& c;
  const Params& core;

  Input clock() const { return {nullptr, "clock", c.clock_hz}; }
  static Input of(const Device& d, const char* key, double value) { return {&d, key, value}; }
  static Input db(const Device& d, const char* key, double value) { return {&d, key, value, true}; }

  std::vector<Input> laser() const {
    std::vector<Input> in{of(c.laser, "wall_plug_efficiency", c.laser.wall_plug_efficiency),
                          db(c.photodetector, "sensitivity", c.photodetector.sensitivity_dbm),
                          db(c.modulator, "insertion_loss", c.modulator.insertion_loss_db),
                          db(c.ring, "insertion_loss", c.ring.insertion_loss_db),
                          {nullptr, "rings_per_modulator", static_cast<double>(c.rings_per_modulator)},  // x ring loss
                          db(c.y_branch, "insertion_loss", c.y_branch.insertion_loss_db),
                          db(c.phase_shifter, "insertion_loss", c.phase_shifter.insertion_loss_db),
                          db(c.coupler, "insertion_loss", c.coupler.insertion_loss_db)};
    if (c.count_laser_loss) in.push_back(db(c.laser, "insertion_loss", c.laser.insertion_loss_db));
    if (c.count_extinction_ratio) in.push_back(db(c.modulator, "extinction_ratio", c.modulator.extinction_ratio_db));
    return in;
  }
  std::vector<Input> converter(const Device& d) const {
    return {of(d, "power", d.power_w), of(d, "sample_rate", d.sample_rate), clock()};
  }
  std::vector<Input> buffers(bool power) const {
    std::vector<Input> in;
    for (const BufferUse& b : c.buffers) {
      in.push_back(power ? of(b.buffer, "power", b.buffer.power_w) : of(b.buffer, "area", b.buffer.area_m2));
    }
    return in;
  }
  static std::vector<Input> footprint(const Device& d) {
    return {of(d, "length", d.length_m), of(d, "width", d.width_m), of(d, "area", d.area_m2)};
  }
  std::vector<Input> node() const {
    std::vector<Input> in{{nullptr, "node_spacing_length", c.node_spacing_length_m},
                          {nullptr, "node_spacing_width", c.node_spacing_width_m},
                          of(c.photodetector, "width", c.photodetector.width_m)};
    for (const Device* d : {&c.y_branch, &c.phase_shifter, &c.coupler}) {
      in.push_back(of(*d, "length", d->length_m));
      in.push_back(of(*d, "width", d->width_m));
    }
    return in;
  }
  std::vector<Input> memory_level(const Device& d) const {
    return {of(d, "access_energy", d.access_energy_j), of(d, "access_size", d.access_bytes)};
  }

  // What a breakdown item reads (photonic_core.cpp names them); an unknown name: everything.
  std::vector<Input> power_inputs(const std::string& item) const {
    if (item == "modulators")
      return {of(c.modulator, "energy_per_bit", c.modulator.energy_per_bit_j),
              of(c.modulator, "static_power", c.modulator.static_power_w), clock()};
    if (item == "ring tuning") return {of(c.ring, "static_power", c.ring.static_power_w)};
    if (item == "DAC") return converter(c.dac);
    if (item == "photodetector")
      return {of(c.photodetector, "power", c.photodetector.power_w),
              of(c.photodetector, "static_power", c.photodetector.static_power_w)};
    if (item == "ADC") return converter(c.adc);
    if (item == "TIA") return {of(c.tia, "power", c.tia.power_w)};
    if (item == "laser") return laser();
    if (item == "memory") return buffers(true);
    if (item == "adder") return {of(c.adder, "power", c.adder.power_w)};
    if (item == "phase shifters") return {of(c.phase_shifter, "static_power", c.phase_shifter.static_power_w)};
    return everything();
  }
  std::vector<Input> area_inputs(const std::string& item) const {
    if (item == "DAC") return {of(c.dac, "area", c.dac.area_m2)};
    if (item == "memory") return buffers(false);
    if (item == "photonic core") return node();
    if (item == "micro-comb") return footprint(c.micro_comb);
    if (item == "modulators + rings") {
      std::vector<Input> in = footprint(c.modulator);
      for (const Input& i : footprint(c.ring)) in.push_back(i);
      return in;
    }
    if (item == "ADC") return {of(c.adc, "area", c.adc.area_m2)};
    if (item == "laser") return footprint(c.laser);
    if (item == "adder") return {of(c.adder, "area", c.adder.area_m2)};
    if (item == "TIA") return {of(c.tia, "area", c.tia.area_m2)};
    return everything();
  }
  std::vector<Input> everything() const {
    std::vector<Input> in = laser();
    for (const char* item : {"modulators", "ring tuning", "DAC", "photodetector", "ADC", "TIA", "memory", "adder",
                             "phase shifters"}) {
      for (const Input& i : power_inputs(item)) in.push_back(i);
    }
    return in;
  }

  // Figures are also shown scaled (mW, mm^2, 2 operations per MAC): a millionfold must be
  // finite too.
  void require(double value, const char* unit, const std::string& what, const std::vector<Input>& inputs) const {
    if (std::isfinite(value * 1e6)) return;
    const auto blamed = std::max_element(inputs.begin(), inputs.end(),
                                         [](const Input& a, const Input& b) { return reach(a) < reach(b); });
    char figure[64];
    std::snprintf(figure, sizeof figure, " (%g %s)", value, unit);
    const std::string message = "the photonic core's " + what + figure +
                                " is beyond what a double holds: this figure, or one it multiplies, is out of proportion";
    if (blamed == inputs.end()) core.node().fail(message);
    if (blamed->device) blamed->device->fail(blamed->key, message);
    core.at(blamed->key).fail(message);
  }

  void run() const {
    std::vector<Input> all_power;
    double total = 0.0, idle = 0.0;
    for (const BreakdownItem& i : c.power_breakdown()) {
      const std::vector<Input> in = power_inputs(i.name);
      require(i.value, "W", i.name + " power", in);
      all_power.insert(all_power.end(), in.begin(), in.end());
      total += i.value;
      idle += i.is_static ? i.value : 0.0;
    }
    require(total, "W", "total power", all_power);
    require(idle, "W", "static power", all_power);
    std::vector<Input> all_area;
    total = 0.0;
    for (const BreakdownItem& i : c.area_breakdown()) {
      const std::vector<Input> in = area_inputs(i.name);
      require(i.value, "m^2", i.name + " area", in);
      all_area.insert(all_area.end(), in.begin(), in.end());
      total += i.value;
    }
    require(total, "m^2", "total area", all_area);
    require(c.peak_macs_per_s(), "MAC/s", "peak rate", {clock()});
    // The cost model's energies per event: a power over one cycle, or an access.
    const EventEnergies e = event_energies(c);
    std::vector<Input> slow = laser();
    slow.push_back(clock());
    require(e.laser_core_cycle_j, "J", "laser energy per core-cycle", slow);
    require(e.weight_dac_j + e.input_dac_j, "J", "DAC energy per conversion", converter(c.dac));
    require(e.modulator_j, "J", "modulator energy per cycle", power_inputs("modulators"));
    require(e.node_cycle_j, "J", "photodetector energy per cycle",
            {of(c.photodetector, "power", c.photodetector.power_w), clock()});
    require(e.adc_j, "J", "ADC energy per readout", converter(c.adc));
    require(e.tia_adder_j, "J", "TIA and adder energy per readout",
            {of(c.tia, "power", c.tia.power_w), of(c.adder, "power", c.adder.power_w), clock()});
    if (c.memory_levels.present) {
      const MemoryLevels& m = c.memory_levels;
      std::vector<Input> levels;
      for (const Device* d : {&m.dram, &m.global_buffer_2, &m.global_buffer_1, &m.noc, &m.register_file}) {
        for (const Input& i : memory_level(*d)) levels.push_back(i);
      }
      require(e.weight_through_j + e.input_through_j + e.output_through_j + e.weight_rf_j + e.input_rf_j, "J",
              "memory energy per element", levels);
    }
  }
};

}  // namespace

void check_core_figures(const PhotonicCore& core, const Params& p) {
  Checker{core, p}.run();
}

}  // namespace lightcode::hw
