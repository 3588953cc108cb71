#include "hw_models/phu/photonic_core.hpp"

#include <algorithm>

#include "hw_models/phu/device_laws.hpp"
#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

const ParamTable& core_devices_params() {
  static const ParamTable table = [] {
    ParamTable t{
        "phu.core.devices", "Which library device each role of the core is (by name).", {}};
    for (const char* role :
         {"laser", "micro_comb", "modulator", "ring_router", "phase_shifter", "coupler", "y_branch",
          "photodetector", "tia", "adc", "dac", "adder"}) {
      t.params.push_back(Param::text(role).required().doc(std::string("the core's ") + role));
    }
    return t;
  }();
  return table;
}

const ParamTable& buffer_use_params() {
  static const ParamTable table{
      "phu.core.buffer",
      "A buffer of the core's memory hierarchy: a library buffer and how many (`count`, or one per "
      "`per_tiles` "
      "tiles).",
      {Param::text("buffer").required().doc("a library buffer"),
       Param::count("count", limits::kUnitCount).doc("instances (or per_tiles)"),
       Param::count("per_tiles", limits::kUnitCount)
           .doc("one instance per this many tiles, rounded up")}};
  return table;
}

const ParamTable& memory_levels_params() {
  static const ParamTable table = [] {
    ParamTable t{"phu.core.memory_levels",
                 "The memory hierarchy's levels, by library memory level (access energies).",
                 {}};
    for (const char* level :
         {"dram", "global_buffer_2", "global_buffer_1", "noc", "register_file"}) {
      t.params.push_back(Param::text(level).required().doc(std::string("the ") + level + " level"));
    }
    return t;
  }();
  return table;
}


}  // namespace

const ParamTable& photonic_core_params() {
  static const ParamTable table{
      "phu.core",
      "A photonic core built from devices: tiles x cores per tile x (height x width) dot-product "
      "nodes x "
      "wavelengths. Lasers follow from the link budget, converters from bits and clock.",
      {
          Param::count("tiles", limits::kUnitCount).required().doc("tiles"),
          Param::count("cores_per_tile", limits::kUnitCount).required().doc("cores per tile"),
          Param::count("height", limits::kUnitCount)
              .required()
              .doc("node rows (operand-1 vectors per cycle)"),
          Param::count("width", limits::kUnitCount)
              .required()
              .doc("node columns (operand-2 vectors per cycle)"),
          Param::count("wavelengths", limits::kUnitCount)
              .required()
              .doc("WDM wavelengths: a node's dot length"),
          Param::quantity("clock", Dimension::frequency)
              .positive()
              .required()
              .doc("modulation and readout rate"),
          Param::count("input_bits", limits::kUnitCount)
              .required()
              .doc("operand-2 (activation) precision: its DAC bits"),
          Param::count("weight_bits", limits::kUnitCount)
              .required()
              .doc("operand-1 (weight) precision: its DAC bits"),
          Param::count("output_bits", limits::kUnitCount)
              .required()
              .doc("readout precision (ADC bits, laser margin)"),
          Param::count("temporal_accumulation", limits::kUnitCount)
              .fallback("1")
              .doc("cycles a node integrates before its readout, at most"),
          Param::boolean("broadcast_operand2")
              .fallback("false")
              .doc("operand 2 modulated once for all tiles"),
          Param::boolean("share_readout")
              .fallback("false")
              .doc("ADC, TIA and adder shared by a tile's cores"),
          Param::boolean("count_laser_loss")
              .fallback("false")
              .doc("the laser's coupling loss in the link budget"),
          Param::boolean("count_extinction_ratio")
              .fallback("false")
              .doc("the modulator's extinction-ratio factor on the laser power"),
          Param::count("rings_per_modulator", limits::kUnitCount)
              .required()
              .doc("micro-ring (de)multiplexers"),
          Param::count("detectors_per_node", limits::kUnitCount)
              .required()
              .doc("photodetectors of a node"),
          Param::quantity("node_spacing_length", Dimension::length)
              .required()
              .doc("node layout margin along"),
          Param::quantity("node_spacing_width", Dimension::length)
              .required()
              .doc("node layout margin across"),
          Param::table("devices", core_devices_params())
              .required()
              .doc("the devices, by library name"),
          Param::table("memory_levels", memory_levels_params())
              .doc("access energies of a product's operands and outputs (none: no memory energy)"),
          Param::quantity("dram_bandwidth", Dimension::bandwidth)
              .positive()
              .doc("the operands' preload bandwidth (none: preload never bounds a product)"),
          Param::tables("buffers", buffer_use_params())
              .doc("the memory hierarchy's buffers (none: no memory)"),
      }};
  return table;
}

PhotonicCore parse_photonic_core(const Params& p, const DeviceLibrary& lib) {
  PhotonicCore c;
  auto count = [&](const char* key) { return static_cast<int>(p.count(key)); };
  c.tiles = count("tiles");
  c.cores_per_tile = count("cores_per_tile");
  c.height = count("height");
  c.width = count("width");
  c.wavelengths = count("wavelengths");
  c.clock_hz = p.quantity("clock");
  c.input_bits = count("input_bits");
  c.weight_bits = count("weight_bits");
  c.output_bits = count("output_bits");
  c.temporal_accumulation = count("temporal_accumulation");
  c.broadcast_operand2 = p.boolean("broadcast_operand2");
  c.share_readout = p.boolean("share_readout");
  c.count_laser_loss = p.boolean("count_laser_loss");
  c.count_extinction_ratio = p.boolean("count_extinction_ratio");
  c.rings_per_modulator = count("rings_per_modulator");
  c.detectors_per_node = count("detectors_per_node");
  c.node_spacing_length_m = p.quantity("node_spacing_length");
  c.node_spacing_width_m = p.quantity("node_spacing_width");

  const Params d = *p.table_if("devices");
  auto device = [&](const char* role, DeviceKind kind) {
    d.text(role);  // records the read
    return lib.get(kind, d.at(role));
  };
  c.laser = device("laser", DeviceKind::laser);
  c.micro_comb = device("micro_comb", DeviceKind::micro_comb);
  c.modulator = device("modulator", DeviceKind::modulator);
  c.ring = device("ring_router", DeviceKind::ring_router);
  c.phase_shifter = device("phase_shifter", DeviceKind::phase_shifter);
  c.coupler = device("coupler", DeviceKind::coupler);
  c.y_branch = device("y_branch", DeviceKind::y_branch);
  c.photodetector = device("photodetector", DeviceKind::photodetector);
  c.tia = device("tia", DeviceKind::tia);
  c.adc = device("adc", DeviceKind::adc);
  c.dac = device("dac", DeviceKind::dac);
  c.adder = device("adder", DeviceKind::adder);

  for (const Device* conv : {&c.adc, &c.dac}) {
    if (conv->bits > limits::kPrecisionBits.value) {
      d.at(conv == &c.adc ? "adc" : "dac")
          .fail("converter '" + conv->name + "' (" + conv->where + ") has " +
                std::to_string(conv->bits) + " bits; the scaling laws hold to " +
                std::to_string(limits::kPrecisionBits.value));
    }
  }
  auto within = [&](const char* key, int bits, const Device& conv) {
    if (bits > conv.bits) {
      p.at(key).fail(std::string(key) + " " + std::to_string(bits) + " is above the " +
                     std::to_string(conv.bits) + " bits of " +
                     std::string(device_kind_noun(conv.kind)) + " '" + conv.name + "' (" +
                     conv.where + ")");
    }
  };
  within("input_bits", c.input_bits, c.dac);
  within("weight_bits", c.weight_bits, c.dac);
  within("output_bits", c.output_bits, c.adc);

  // The model runs cores as units and a core's H x W nodes as its dot products in flight.
  if (c.cores() > limits::kUnitCount.value) {
    p.at("tiles").fail("tiles x cores_per_tile = " + std::to_string(c.cores()) +
                       " is above the unit_count limit " +
                       std::to_string(limits::kUnitCount.value));
  }
  if (int64_t{c.height} * c.width > limits::kUnitCount.value) {
    p.at("height").fail("height x width = " + std::to_string(int64_t{c.height} * c.width) +
                        " is above the unit_count limit " +
                        std::to_string(limits::kUnitCount.value));
  }
  try {
    c.counts();
  } catch (const Error& e) {
    p.node().fail(e.what());
  }
  if (const auto m = p.table_if("memory_levels")) {
    MemoryLevels& l = c.memory_levels;
    l.present = true;
    for (auto [key, level] : {std::pair<const char*, Device*>{"dram", &l.dram},
                              {"global_buffer_2", &l.global_buffer_2},
                              {"global_buffer_1", &l.global_buffer_1},
                              {"noc", &l.noc},
                              {"register_file", &l.register_file}}) {
      m->text(key);
      *level = lib.get(DeviceKind::memory_level, m->at(key));
    }
  }
  c.dram_bandwidth = p.quantity_if("dram_bandwidth").value_or(0.0);
  for (const Params& b : p.tables("buffers")) {
    BufferUse use;
    b.text("buffer");
    use.buffer = lib.get(DeviceKind::buffer, b.at("buffer"));
    const auto n = b.count_if("count");
    const auto per = b.count_if("per_tiles");
    if (n.has_value() == per.has_value())
      b.node().fail("give a buffer `count` or `per_tiles`, exactly one");
    use.count = n ? *n : ceil_div(c.tiles, *per);
    c.buffers.push_back(use);
  }
  check_core_figures(c, p);
  return c;
}

PhotonicCore PhotonicCore::at_precision(int bits) const {
  PhotonicCore c = *this;
  const int narrower_by = std::max(input_bits, weight_bits) - bits;
  c.input_bits = bits;
  c.weight_bits = bits;
  c.output_bits = std::max(1, output_bits - narrower_by);
  return c;
}

int64_t PhotonicCore::macs_per_cycle() const {
  return cores() * height * width * wavelengths;
}

CoreCounts PhotonicCore::counts() const {
  CoreCounts n;
  n.cores = cores();
  // Operand 1 is modulated per core; operand 2 once per core position, shared by every tile
  // when broadcast (LT entry_area_power_profile.py: H*N*T*C + W*N*C).
  n.operand1_modulators = int64_t{height} * wavelengths * n.cores;
  n.operand2_modulators =
      int64_t{width} * wavelengths * (broadcast_operand2 ? cores_per_tile : n.cores);
  n.modulators = n.operand1_modulators + n.operand2_modulators;
  const char* what = "a device count of the photonic core";
  n.rings_powered = checked_mul(n.modulators, rings_per_modulator, what);
  // LT's area rule places a mux/demux pair for every channel of every core, broadcast or not
  // (photonic_crossbar.py cal_core_area: (H + W) x N x 2 per core).
  n.rings_placed =
      checked_mul(int64_t{height + width} * wavelengths * n.cores, rings_per_modulator, what);
  n.nodes = int64_t{height} * width * n.cores;
  n.photodetectors = checked_mul(n.nodes, detectors_per_node, what);
  n.readouts = int64_t{height} * width * (share_readout ? tiles : n.cores);
  n.lasers_powered = n.cores;
  // LT's area rule (entry_area_power_profile.py): one laser and one comb per tile and per
  // core position, T + C, not T x C.
  n.sources_placed = int64_t{tiles} + cores_per_tile;
  return n;
}

double PhotonicCore::modulation_loss_db() const {
  return modulator.insertion_loss_db + rings_per_modulator * ring.insertion_loss_db +
         y_branch.insertion_loss_db * y_tree_stages(std::max(height, width));
}

double PhotonicCore::node_loss_db() const {
  return y_branch.insertion_loss_db + phase_shifter.insertion_loss_db + coupler.insertion_loss_db;
}

double PhotonicCore::link_loss_db() const {
  return modulation_loss_db() + node_loss_db() + (count_laser_loss ? laser.insertion_loss_db : 0.0);
}

double PhotonicCore::laser_optical_dbm() const {
  return required_optical_dbm(photodetector.sensitivity_dbm, link_loss_db(), height * width);
}

double PhotonicCore::laser_power_per_core_w() const {
  return laser_electrical_power(laser_optical_dbm(), laser.wall_plug_efficiency, output_bits,
                                count_extinction_ratio ? modulator.extinction_ratio_db : 0.0);
}

double PhotonicCore::adc_power_w() const {
  return sar_adc_power(adc.power_w, adc.bits, adc.sample_rate, output_bits, clock_hz);
}

double PhotonicCore::dac_power_w(int bits) const {
  return capacitive_dac_power(dac.power_w, dac.bits, dac.sample_rate, bits, clock_hz);
}

double PhotonicCore::modulator_power_w() const {
  // A modulator switches one symbol per cycle (LT: 450 fJ/bit x 5 GHz = 2.25 mW).
  return modulator.energy_per_bit_j * clock_hz + modulator.static_power_w;
}

double PhotonicCore::node_length_m() const {
  return y_branch.length_m + phase_shifter.length_m + coupler.length_m + node_spacing_length_m;
}

double PhotonicCore::node_width_m() const {
  const double widest = std::max({phase_shifter.width_m, coupler.width_m, photodetector.width_m});
  return y_branch.width_m + widest + node_spacing_width_m;
}

std::vector<BreakdownItem> PhotonicCore::power_breakdown() const {
  const CoreCounts n = counts();
  auto times = [](int64_t count, double each) { return static_cast<double>(count) * each; };
  double memory = 0.0;
  for (const BufferUse& b : buffers) memory += times(b.count, b.buffer.power_w);
  // The laser is charged per core-cycle of work (LT's workload rule), so it is not static.
  return {
      {"modulators", times(n.modulators, modulator_power_w()), false},
      {"ring tuning", times(n.rings_powered, ring.static_power_w), true},
      {"DAC",
       times(n.operand1_modulators, dac_power_w(weight_bits)) +
           times(n.operand2_modulators, dac_power_w(input_bits)),
       false},
      {"photodetector",
       times(n.photodetectors, photodetector.power_w + photodetector.static_power_w), false},
      {"ADC", times(n.readouts, adc_power_w()), false},
      {"TIA", times(n.readouts, tia.power_w), false},
      {"laser", times(n.lasers_powered, laser_power_per_core_w()), false},
      {"memory", memory, true},
      {"adder", times(n.readouts, adder.power_w), false},
      {"phase shifters", times(n.nodes, phase_shifter.static_power_w), true},
  };
}

std::vector<BreakdownItem> PhotonicCore::area_breakdown() const {
  const CoreCounts n = counts();
  auto times = [](int64_t count, double each) { return static_cast<double>(count) * each; };
  double memory = 0.0;
  for (const BufferUse& b : buffers) memory += times(b.count, b.buffer.area_m2);
  return {
      {"DAC", times(n.modulators, dac.area_m2)},
      {"memory", memory},
      {"photonic core", times(n.nodes, node_length_m() * node_width_m())},
      {"micro-comb", times(n.sources_placed, micro_comb.area_m2)},
      {"modulators + rings",
       times(n.modulators, modulator.area_m2) + times(n.rings_placed, ring.area_m2)},
      {"ADC", times(n.readouts, adc.area_m2)},
      {"laser", times(n.sources_placed, laser.area_m2)},
      {"adder", times(n.readouts, adder.area_m2)},
      {"TIA", times(n.readouts, tia.area_m2)},
  };
}

double PhotonicCore::total_power_w() const {
  double sum = 0.0;
  for (const BreakdownItem& i : power_breakdown()) sum += i.value;
  return sum;
}

double PhotonicCore::static_power_w() const {
  double sum = 0.0;
  for (const BreakdownItem& i : power_breakdown()) sum += i.is_static ? i.value : 0.0;
  return sum;
}

double PhotonicCore::total_area_m2() const {
  double sum = 0.0;
  for (const BreakdownItem& i : area_breakdown()) sum += i.value;
  return sum;
}

}  // namespace lightcode::hw
