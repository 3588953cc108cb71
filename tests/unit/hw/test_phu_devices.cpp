// A PHU built from devices: the scaling laws against hand-computed values, the device counts,
// and DOTA-B's published area, power and peak (../shared/reference/photonic/designs.yaml)
// reproduced from the shipped configs alone; bad device and core inputs fail at file:line.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "hw_models/phu/device_laws.hpp"
#include "hw_models/phu/photonic_work.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

std::string hardware(const std::string& file) {
  return test::source_dir() + "/configs/hardware/" + file;
}

PhotonicCore core_of(const std::string& file) {
  const PhuSpec s = parse_phu_spec(ConfigNode::load_file(hardware(file)));
  REQUIRE(s.core);
  return *s.core;
}

double item(const std::vector<BreakdownItem>& items, const std::string& name) {
  for (const BreakdownItem& i : items) {
    if (i.name == name) return i.value;
  }
  FAIL("no breakdown item " << name);
  return 0.0;
}

// The first document of designs.yaml (Lightening-Transformer's DOTA), or nullopt when absent.
std::optional<ConfigNode> published() {
  const std::string path = test::reference_dir() + "/photonic/designs.yaml";
  if (!test::have_external(path)) return std::nullopt;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  return ConfigNode::parse_data(all.substr(0, all.find("\n---\n")), path);
}

double value(const ConfigNode& doc, const std::string& dotted) {
  ConfigNode n = doc;
  std::stringstream parts(dotted);
  for (std::string key; std::getline(parts, key, '.');) n = n.at(key);
  return n.at("value").as_double();
}

// The error of a PHU spec written as if it sat in configs/hardware/ (so `from:` and the device
// library resolve), parsed through the family's table.
std::string error_of_spec(const std::string& yaml) {
  const std::string dir = test::source_dir() + "/configs/hardware";
  try {
    parse_phu_spec(ConfigNode::parse(yaml, dir + "/bad.yaml", dir));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string error_of_library(const std::string& yaml) {
  try {
    DeviceLibrary lib;
    lib.add(ConfigNode::parse(yaml, "lib.yaml"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("converter laws at 4 bits and 5 GS/s: SAR ADC 3.7 mW and capacitive DAC 2.232 mW") {
  // 14.8 mW x (5 / 10) x (4 / 8) and 50 mW x ((16 / 4) / (256 / 8)) x (5 / 14), by hand.
  CHECK(sar_adc_power(14.8e-3, 8, 10e9, 4, 5e9) == doctest::Approx(3.7e-3).epsilon(1e-12));
  CHECK(capacitive_dac_power(50e-3, 8, 14e9, 4, 5e9) ==
        doctest::Approx(50e-3 * 0.125 * 5.0 / 14.0).epsilon(1e-12));
  CHECK(capacitive_dac_power(50e-3, 8, 14e9, 4, 5e9) == doctest::Approx(2.232e-3).epsilon(1e-3));
  // At the reference point each law returns the reference power.
  CHECK(sar_adc_power(14.8e-3, 8, 10e9, 8, 10e9) == doctest::Approx(14.8e-3));
  CHECK(capacitive_dac_power(50e-3, 8, 14e9, 8, 14e9) == doctest::Approx(50e-3));
  // The shipped devices through a core: the same figures, and LT's 8-bit ones.
  const PhotonicCore b4 = core_of("phu_dota_b.yaml");
  CHECK(b4.adc_power_w() == doctest::Approx(3.7e-3).epsilon(1e-12));
  CHECK(b4.dac_power_w(4) == doctest::Approx(2.2321e-3).epsilon(1e-4));
  const PhotonicCore b8 = core_of("phu_dota_b_8bit.yaml");
  CHECK(b8.adc_power_w() == doctest::Approx(7.4e-3).epsilon(1e-12));
  CHECK(b8.dac_power_w(8) == doctest::Approx(17.857e-3).epsilon(1e-4));
}

TEST_CASE("link budget of DOTA-B: 4.22 dB and 96.26 mW per core at 4 bits") {
  CHECK(y_tree_stages(12) == 4);
  CHECK(y_tree_stages(16) == 4);
  CHECK(y_tree_stages(17) == 5);
  CHECK(y_tree_stages(1) == 0);
  const PhotonicCore c = core_of("phu_dota_b.yaml");
  // 1.2 + 2 x 0.93 + 4 x 0.1 and 0.1 + 0.33 + 0.33 (dB), by hand.
  CHECK(c.modulation_loss_db() == doctest::Approx(3.46).epsilon(1e-12));
  CHECK(c.node_loss_db() == doctest::Approx(0.76).epsilon(1e-12));
  CHECK(c.link_loss_db() == doctest::Approx(4.22).epsilon(1e-12));
  // -25 dBm + 4.22 dB + 10 log10(144) = 0.8036 dBm = 1.2032 mW; / 0.2 x 2^4 = 96.26 mW.
  CHECK(c.laser_optical_dbm() == doctest::Approx(0.80362).epsilon(1e-4));
  CHECK(c.laser_power_per_core_w() == doctest::Approx(96.26e-3).epsilon(1e-4));
  // At 8 bits the margin is 2^8: 16 times the 4-bit laser.
  CHECK(core_of("phu_dota_b_8bit.yaml").laser_power_per_core_w() ==
        doctest::Approx(16.0 * c.laser_power_per_core_w()).epsilon(1e-12));
  // SimPhony's additions: the laser's coupling loss (here 2 dB) adds to the budget and the
  // extinction ratio (10 dB) divides by 1 - 10^-1.
  PhotonicCore sp = c;
  sp.laser.insertion_loss_db = 2.0;
  sp.count_laser_loss = true;
  CHECK(sp.link_loss_db() == doctest::Approx(6.22).epsilon(1e-12));
  sp.count_laser_loss = false;
  sp.count_extinction_ratio = true;
  CHECK(sp.laser_power_per_core_w() ==
        doctest::Approx(c.laser_power_per_core_w() / 0.9).epsilon(1e-12));
}

TEST_CASE("DOTA-B counting rules: 1440 modulators and DACs and 576 ADCs") {
  const CoreCounts n = core_of("phu_dota_b.yaml").counts();
  CHECK(n.cores == 8);
  CHECK(n.modulators == 1440);  // 12 x 12 x 4 x 2 + 12 x 12 x 2 (operand 2 broadcast)
  CHECK(n.rings_powered == 2880);
  CHECK(n.rings_placed == 4608);
  CHECK(n.nodes == 1152);
  CHECK(n.photodetectors == 2304);
  CHECK(n.readouts == 576);  // shared by the two cores of a tile
  CHECK(n.lasers_powered == 8);
  CHECK(n.sources_placed == 6);
  // Without broadcast and sharing every core has its own.
  PhotonicCore plain = core_of("phu_dota_b.yaml");
  plain.broadcast_operand2 = false;
  plain.share_readout = false;
  CHECK(plain.counts().modulators == 2304);
  CHECK(plain.counts().readouts == 1152);
}

TEST_CASE("DOTA-B peak is 138.24 TOPS exactly and DOTA-L doubles it") {
  const PhotonicCore b = core_of("phu_dota_b.yaml");
  CHECK(2.0 * b.peak_macs_per_s() == 138.24e12);
  CHECK(2.0 * core_of("phu_dota_l.yaml").peak_macs_per_s() == 2.0 * 138.24e12);
  if (const auto doc = published())
    CHECK(2.0 * b.peak_macs_per_s() / 1e12 == value(*doc, "results.peak_DOTA_B.tops"));
}

TEST_CASE("DOTA-B area within 5 pct of 60.30 mm2 and every component within 10 pct") {
  const auto doc = published();
  if (!doc) return;
  const PhotonicCore c = core_of("phu_dota_b.yaml");
  const double total_mm2 = c.total_area_m2() * 1e6;
  CHECK(total_mm2 == doctest::Approx(value(*doc, "results.area_total_DOTA_B")).epsilon(0.05));
  const std::map<std::string, std::string> ours_of{{"DAC", "DAC"},
                                                   {"mem", "memory"},
                                                   {"photonic_core", "photonic core"},
                                                   {"micro_comb", "micro-comb"},
                                                   {"MZM_plus_MRR", "modulators + rings"},
                                                   {"ADC", "ADC"},
                                                   {"laser", "laser"},
                                                   {"adder", "adder"},
                                                   {"TIA", "TIA"}};
  const ConfigNode breakdown = doc->at("results").at("area_breakdown_DOTA_B");
  REQUIRE(breakdown.keys().size() == ours_of.size());
  for (const std::string& key : breakdown.keys()) {
    CAPTURE(key);
    CHECK(item(c.area_breakdown(), ours_of.at(key)) * 1e6 ==
          doctest::Approx(breakdown.at(key).at("value").as_double()).epsilon(0.10));
  }
}

TEST_CASE("DOTA-B 4-bit power within 5 pct of 14.75 W and every component within 10 pct") {
  const auto doc = published();
  if (!doc) return;
  const PhotonicCore c = core_of("phu_dota_b.yaml");
  CHECK(c.total_power_w() * 1e3 ==
        doctest::Approx(value(*doc, "results.power_total_DOTA_B_4b")).epsilon(0.05));
  const std::vector<BreakdownItem> p = c.power_breakdown();
  const std::map<std::string, double> ours{
      {"MZM_plus_MRR", item(p, "modulators") + item(p, "ring tuning")},
      {"DAC", item(p, "DAC")},
      {"photodetector", item(p, "photodetector")},
      {"ADC", item(p, "ADC")},
      {"TIA", item(p, "TIA")},
      {"laser", item(p, "laser")},
      {"mem", item(p, "memory")},
      {"adder", item(p, "adder")}};
  const ConfigNode breakdown = doc->at("results").at("power_breakdown_DOTA_B_4b");
  REQUIRE(breakdown.keys().size() == ours.size());
  for (const std::string& key : breakdown.keys()) {
    CAPTURE(key);
    CHECK(ours.at(key) * 1e3 ==
          doctest::Approx(breakdown.at(key).at("value").as_double()).epsilon(0.10));
  }
  // The published total has no other component: ours adds only the (zero) MEMS phase shifters.
  CHECK(item(p, "phase shifters") == 0.0);
}

TEST_CASE("hw show prints peak TOPS and TOPS per W and per mm2 and both breakdowns") {
  const std::vector<std::string> lines =
      phu_spec_summary(ConfigNode::load_file(hardware("phu_dota_b.yaml")));
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  CHECK(all.find("138.24 TOPS") != std::string::npos);
  CHECK(all.find("TOPS/W") != std::string::npos);
  CHECK(all.find("TOPS/mm2") != std::string::npos);
  CHECK(all.find("power breakdown") != std::string::npos);
  CHECK(all.find("area breakdown") != std::string::npos);
  CHECK(all.find("4.22 dB") != std::string::npos);
  CHECK(all.find("products       up to 4 bits") != std::string::npos);
  // Same input, same bytes.
  CHECK(phu_spec_summary(ConfigNode::load_file(hardware("phu_dota_b.yaml"))) == lines);
}

TEST_CASE("the H100 plus DOTA-B system loads with every key read and its PHU is one unit") {
  const System sys = System::load(test::source_dir() + "/configs/systems/gpu_dota_b.yaml",
                                  profile_named("default"));
  const PhuSpec s = parse_phu_spec(ConfigNode::load_file(hardware("phu_dota_b.yaml")));
  const auto model = make_phu_model(s);
  // Tiles and cores share each product, so the accelerator is one unit.
  CHECK(model->unit_count() == 1);
  CHECK(model->supports(test::op("dense", {{12, 12}, {12, 12}}, {12, 12})));
  CHECK_FALSE(model->supports(test::op("add", {{8}, {8}}, {8})));
  // Static power is ring tuning and the buffers: the laser is charged per core-cycle.
  CHECK(model->static_power_watts() == doctest::Approx(0.792 + 0.31639).epsilon(1e-4));
}

TEST_CASE("a product's cost from event counts: 24 x 72 weights times 72 x 24 activations by hand") {
  const PhotonicCore c = core_of("phu_dota_b.yaml");
  // iter_N1 = 2, iter_D = 6, iter_N2 = 2: 24 core-cycles over 8 cores = 3 cycles (0.6 ns);
  // the 4-bit operands' preload, (1728 + 1728) x 0.5 B at 1 TB/s = 1.728 ns, is longer.
  const ProductCost p = photonic_product_cost(c, {24, 72, 24, 1}, "test");
  CHECK(p.core_cycles == 24);
  CHECK(p.cycles == 3);
  CHECK(p.compute_s == doctest::Approx(0.6e-9));
  CHECK(p.preload_s == doctest::Approx(1.728e-9));
  CHECK(p.memory_bound);
  CHECK(p.time_s == doctest::Approx(1.728e-9));
  // T = min(3, ceil(72 / (2 x 12))) = 3; readouts 24 x 24 x ceil(ceil(6 / 3) / 2) = 576.
  CHECK(p.readout_period == 3);
  const double cycle = 1.0 / 5e9;
  CHECK(p.energy.laser_j == doctest::Approx(24 * c.laser_power_per_core_w() * cycle));
  // Operand 1: 24 x 72 x 2 = 3456 conversions; operand 2: 2 x 24 x 72 / 4 tiles = 864.
  CHECK(p.energy.modulation_j ==
        doctest::Approx((3456 + 864) * (2.2321e-3 + 2.25e-3) * cycle).epsilon(1e-4));
  // 576 nodes x 6 cycles x 2 detectors x 1.1 mW; 576 readouts x (3.7 + 3 + 0.04556) mW.
  CHECK(p.energy.detection_j ==
        doctest::Approx((3456 * 2 * 1.1e-3 + 576 * (3.7e-3 + 3e-3 + 0.04556e-3)) * cycle)
            .epsilon(1e-9));
  CHECK(p.energy.conversion_j ==
        doctest::Approx((4320 * c.dac_power_w(4) + 576 * 3.7e-3) * cycle).epsilon(1e-9));
  // Memory: 4-bit elements at a quarter of LT's 2-byte access energies; 1728 + 1728 operand
  // and 576 output elements through DRAM, both global buffers and the NoC, and 4320 RF reads.
  const double through = (1728 + 1728 + 576) * 0.25 * (62.4 + 1.655 + 0.92 + 2.0) * 1e-12;
  CHECK(p.energy.memory_j == doctest::Approx(through + 4320 * 0.25 * 0.073e-12).epsilon(1e-9));
  CHECK(p.energy.static_j == doctest::Approx(c.static_power_w() * 1.728e-9));
  // The model charges the four dynamic categories and times the product as computed here.
  const auto model = make_device_phu_model(c);
  const Cost cost =
      model->estimate(test::op("dense", {{24, 72}, {24, 72}}, {24, 24}), kPhuTaskParallel);
  CHECK(cost.time == Time::from_seconds(1.728e-9));
  CHECK(cost.bound == Bound::memory);
  CHECK(cost.energy.picojoules() == doctest::Approx(p.energy.dynamic_j() * 1e12));
  // ... and hands them on by category (the report's rows for the unit), the DAC/ADC share
  // still in conversion_energy.
  CHECK(cost.parts[EnergyPart::laser].picojoules() == doctest::Approx(p.energy.laser_j * 1e12));
  CHECK(cost.parts[EnergyPart::modulation].picojoules() ==
        doctest::Approx(p.energy.modulation_j * 1e12));
  CHECK(cost.parts[EnergyPart::detection].picojoules() ==
        doctest::Approx(p.energy.detection_j * 1e12));
  CHECK(cost.parts[EnergyPart::memory].picojoules() == doctest::Approx(p.energy.memory_j * 1e12));
  double parts_pj = 0.0;
  for (Energy e : cost.parts.part) parts_pj += e.picojoules();
  CHECK(parts_pj == doctest::Approx(cost.energy.picojoules()).epsilon(1e-12));
  CHECK(cost.conversion_energy.picojoules() == doctest::Approx(p.energy.conversion_j * 1e12));
}

TEST_CASE("tiles and cores share one product: doubling either halves a large product's time") {
  const PhotonicCore b = core_of("phu_dota_b.yaml");
  const ProductShape big{4096, 4096, 4096, 1};
  const ProductCost base = photonic_product_cost(b, big, "big");
  CHECK_FALSE(base.memory_bound);
  PhotonicCore more_cores = b;
  more_cores.cores_per_tile = 4;
  CHECK(photonic_product_cost(more_cores, big, "big").time_s ==
        doctest::Approx(base.time_s / 2).epsilon(1e-6));
  const ProductCost l = photonic_product_cost(core_of("phu_dota_l.yaml"), big, "big");
  CHECK(l.time_s == doctest::Approx(base.time_s / 2).epsilon(1e-6));
  // The same core-cycles run, so the laser energy is the same; broadcast over 8 tiles halves
  // operand 2's conversions.
  CHECK(l.energy.laser_j == doctest::Approx(base.energy.laser_j));
  CHECK(l.energy.modulation_j < base.energy.modulation_j);
  // Until the preload binds: a product with little reuse is memory-bound at any core count.
  const ProductShape thin{4096, 4096, 1, 1};
  CHECK(photonic_product_cost(b, thin, "thin").memory_bound);
  CHECK(photonic_product_cost(more_cores, thin, "thin").time_s ==
        photonic_product_cost(b, thin, "thin").time_s);
}

TEST_CASE("the shipped device library parses: every kind in SI units") {
  const std::string dir = test::source_dir() + "/configs/devices/";
  DeviceLibrary lib;
  for (const char* f : {"photonic.yaml", "electronic.yaml", "memory.yaml"}) {
    lib.add(ConfigNode::load_file(dir + f));
  }
  const auto& d = lib.devices();
  CHECK(d.at("lt_mzm").kind == DeviceKind::modulator);
  CHECK(d.at("lt_mzm").energy_per_bit_j == doctest::Approx(450e-15));
  CHECK(d.at("lt_mzm").area_m2 == doctest::Approx(260e-6 * 20e-6));
  CHECK(d.at("lt_pd").sensitivity_dbm == -25.0);
  CHECK(d.at("sp_on_chip_laser").insertion_loss_db == 2.0);
  CHECK(d.at("lt_sar_adc").bits == 8);
  CHECK(d.at("lt_sar_adc").law == "sar");
  CHECK(d.at("lt_cap_dac").area_m2 == doctest::Approx(11000e-12));
  CHECK(d.at("lt_global_buffer_2mb").area_m2 == doctest::Approx(14.348352e-6));
  CHECK(d.at("lt_dram").access_energy_j == doctest::Approx(62.4e-12));
  CHECK(d.at("sp_mmi_1x10").kind == DeviceKind::mmi);
  CHECK(d.at("sp_parabolic_crossing").kind == DeviceKind::crossing);
  CHECK(d.at("sp_integrator").static_power_w == doctest::Approx(0.3e-3));
}

TEST_CASE("a device with negative loss or power is an error at its file and line") {
  const std::string loss = error_of_library(
      "y_branches:\n  yb:\n    insertion_loss: -0.1 dB\n    length: 1 um\n    width: 1 um\n");
  CHECK(loss.find("lib.yaml:3") != std::string::npos);
  CHECK(loss.find("insertion_loss") != std::string::npos);
  const std::string power = error_of_library("tias:\n  t:\n    power: -3 mW\n    area: 50 um^2\n");
  CHECK(power.find("lib.yaml:3") != std::string::npos);
  CHECK(power.find("power") != std::string::npos);
  // A name defined twice, and an unknown key, are errors too.
  const std::string twice = error_of_library(
      "tias:\n  t: {power: 3 mW, area: 50 um^2}\nadders:\n  t: {power: 1 mW, area: 1 um^2}\n");
  CHECK(twice.find("already defined at lib.yaml:2") != std::string::npos);
  CHECK(
      error_of_library("tias:\n  t: {power: 3 mW, area: 50 um^2, colour: red}\n").find("colour") !=
      std::string::npos);
}

TEST_CASE("figures that overflow a double are errors at the key to blame, never inf") {
  // A footprint of 1e200 m x 1e200 m: its area is beyond a double.
  CHECK(error_of_library("y_branches:\n  yb:\n    insertion_loss: 0.1 dB\n    length: 1e200 m\n    width: 1e200 m\n") ==
        "lib.yaml:5:12: y_branches.yb.width: Y-branch 'yb': its footprint, length x width, is beyond a double "
        "(above 1.8e308 m^2)");
  // A core's figures: the clock (its own key) or a device figure is blamed, by which lies
  // farther from ordinary magnitudes.
  const std::string clock = error_of_spec("from: phu_dota_b.yaml\ncore:\n  clock: 1e299 Hz\n");
  CHECK(clock.find("/bad.yaml:3:10: core.clock: the photonic core's") != std::string::npos);
  // 65536 rings of 0.93 dB each on the light path: 61,000 dB of loss, a laser of 10^6000 W.
  const std::string rings = error_of_spec("from: phu_dota_b.yaml\ncore:\n  rings_per_modulator: 65536\n");
  CHECK(rings.find("/bad.yaml:3:24: core.rings_per_modulator: the photonic core's laser power (inf W)") != std::string::npos);
}

TEST_CASE("a precision above a converter's bits is an error at the precision's line") {
  const std::string e = error_of_spec("from: phu_dota_b.yaml\ncore:\n  input_bits: 10\n");
  CHECK(e.find("bad.yaml:3") != std::string::npos);
  CHECK(e.find("input_bits 10 is above the 8 bits of DAC 'lt_cap_dac'") != std::string::npos);
  const std::string out = error_of_spec("from: phu_dota_b.yaml\ncore:\n  output_bits: 9\n");
  CHECK(out.find("bad.yaml:3") != std::string::npos);
  CHECK(out.find("ADC 'lt_sar_adc'") != std::string::npos);
  // A core too large to count is an error at its key, not a wrap.
  CHECK(error_of_spec("from: phu_dota_b.yaml\ncore:\n  tiles: 65536\n").find("bad.yaml:3") !=
        std::string::npos);
}

TEST_CASE("a core naming a missing device is an error at the naming line") {
  const std::string e =
      error_of_spec("from: phu_dota_b.yaml\ncore:\n  devices:\n    modulator: lt_mzx\n");
  CHECK(e.find("bad.yaml:4") != std::string::npos);
  CHECK(e.find("no modulator named 'lt_mzx'") != std::string::npos);
  CHECK(e.find("lt_mzm") != std::string::npos);  // the known ones are listed
  // A device of another kind is not a modulator either.
  CHECK(error_of_spec("from: phu_dota_b.yaml\ncore:\n  devices:\n    modulator: lt_mrr\n")
            .find("no modulator") != std::string::npos);
  // A library file that does not exist: the error names where it was listed.
  const std::string file =
      error_of_spec("from: phu_dota_b.yaml\ndevice_library: [../devices/nope.yaml]\n");
  CHECK(file.find("bad.yaml:2") != std::string::npos);
  // A core with cores, clock or multiplex set too: they are derived.
  CHECK(error_of_spec("from: phu_dota_b.yaml\ncores: 4\n").find("derived from `core`") !=
        std::string::npos);
}

TEST_CASE("the lightcode profile refuses a device-built PHU and keeps its per-number one") {
  const ConfigNode dota = ConfigNode::load_file(hardware("phu_dota_b.yaml"));
  ConfigUsage usage;
  const FamilyInfo* phu = default_registry().find("phu");
  REQUIRE(phu);
  std::string message;
  try {
    phu->model_for(profile_named("lightcode"))(Params(dota, *phu->params, usage));
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(message.find("phu_dota_b.yaml") != std::string::npos);
  CHECK(message.find("per-number") != std::string::npos);
}
