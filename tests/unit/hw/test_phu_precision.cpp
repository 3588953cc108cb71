// Precision on a PHU built from devices: where a product's required bits come from
// (sim/ir/precision.hpp), the core at fewer bits (laser margin and converter power follow),
// and the refusal of a product that needs more bits than the core computes at.
#include <doctest/doctest.h>

#include <cmath>

#include "hw_models/phu/photonic_work.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/precision.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

PhotonicCore precision_core_of(const std::string& file) {
  const PhuSpec s =
      parse_phu_spec(ConfigNode::load_file(test::source_dir() + "/configs/hardware/" + file));
  REQUIRE(s.core);
  return *s.core;
}

ir::Node product(ir::DType dtype = ir::DType::float32) {
  return test::op("dense", {{96, 768}, {768, 768}}, {96, 768}, dtype);
}

}  // namespace

TEST_CASE("a product's required bits: the scenario's, else an integer dtype's, else none") {
  CHECK_FALSE(ir::required_bits(product()).has_value());  // float: the unit's own bits
  CHECK(ir::required_bits(product(ir::DType::int8)) == 8);
  CHECK(ir::required_bits(product(ir::DType::int16)) == 16);
  ir::Node mixed = product(ir::DType::int8);
  mixed.input_types[1].dtype = ir::DType::float16;
  CHECK_FALSE(ir::required_bits(mixed).has_value());  // a float operand keeps floats' rule
  ir::Node set = product(ir::DType::int8);
  set.required_bits = 4;  // the scenario's setting wins over the dtype
  CHECK(ir::required_bits(set) == 4);
  // Only matrix products carry a requirement.
  CHECK_FALSE(ir::required_bits(test::op("add", {{4, 4}, {4, 4}}, {4, 4}, ir::DType::int8)));

  ir::Graph g;
  ir::Node a = test::wired("memory", {}, {4, 8});
  ir::Node b = test::wired("memory", {}, {8, 8});
  g.add(a);
  g.add(b);
  g.add(test::wired("dense", {{0, 0}, {1, 0}}, {4, 8}));
  g.add(test::wired("add", {{2, 0}, {2, 0}}, {4, 8}));
  ir::require_bits(g, 6);
  CHECK(ir::required_bits(g.node(2)) == 6);
  CHECK_FALSE(ir::required_bits(g.node(3)).has_value());
  CHECK_THROWS_AS(ir::require_bits(g, 0), Error);
  CHECK_THROWS_AS(ir::require_bits(g, 25), Error);
}

TEST_CASE(
    "DOTA-B 8-bit run at 4 bits is DOTA-B 4-bit: laser margin and converters follow the bits") {
  const PhotonicCore b8 = precision_core_of("phu_dota_b_8bit.yaml");
  const PhotonicCore b4 = precision_core_of("phu_dota_b.yaml");
  CHECK(b8.max_product_bits() == 8);
  const PhotonicCore at4 = b8.at_precision(4);
  CHECK(at4.input_bits == 4);
  CHECK(at4.weight_bits == 4);
  CHECK(at4.output_bits == 4);
  CHECK(at4.laser_power_per_core_w() == doctest::Approx(b4.laser_power_per_core_w()));
  CHECK(at4.laser_power_per_core_w() == doctest::Approx(b8.laser_power_per_core_w() / 16.0));
  CHECK(at4.adc_power_w() == doctest::Approx(b8.adc_power_w() / 2.0));
  CHECK(at4.total_power_w() == doctest::Approx(b4.total_power_w()).epsilon(1e-12));
  // The design's readout headroom is kept: 8-bit operands read out at 10 bits read out at 6
  // when run at 4.
  PhotonicCore headroom = b8;
  headroom.output_bits = 10;
  CHECK(headroom.at_precision(4).output_bits == 6);
}

TEST_CASE("the device PHU refuses a product above its bits and charges a narrower one its own") {
  const auto b4 = make_device_phu_model(precision_core_of("phu_dota_b.yaml"));
  const auto b8 = make_device_phu_model(precision_core_of("phu_dota_b_8bit.yaml"));
  CHECK(b4->max_product_bits() == 4);
  CHECK(b8->max_product_bits() == 8);
  // int8 operands need 8 bits: not a candidate on the 4-bit core, one on the 8-bit core.
  CHECK_FALSE(b4->supports(product(ir::DType::int8)));
  CHECK(b8->supports(product(ir::DType::int8)));
  ir::Node at8 = product();
  at8.required_bits = 8;
  CHECK_FALSE(b4->supports(at8));
  ir::Node at4 = product();
  at4.required_bits = 4;
  CHECK(b4->supports(at4));
  // At the core's own bits a requirement changes nothing.
  const Cost own = b4->estimate(product(), kPhuTaskParallel);
  const Cost same = b4->estimate(at4, kPhuTaskParallel);
  CHECK(same.energy == own.energy);
  CHECK(same.time == own.time);
  // The 8-bit core running a 4-bit product: the laser (2^bits margin) and converters pay 4
  // bits; the time is the cycles' (compute-bound here), so it is unchanged.
  const Cost full = b8->estimate(product(), kPhuTaskParallel);
  const Cost narrow = b8->estimate(at4, kPhuTaskParallel);
  CHECK(full.bound == Bound::compute);
  CHECK(narrow.time == full.time);
  CHECK(narrow.parts[EnergyPart::laser].picojoules() ==
        doctest::Approx(full.parts[EnergyPart::laser].picojoules() / 16.0));
  CHECK(narrow.conversion_energy < full.conversion_energy);
  // ... exactly what the 4-bit design charges for the same product.
  CHECK(narrow.energy.picojoules() == doctest::Approx(own.energy.picojoules()).epsilon(1e-12));
  CHECK(b8->static_power_watts() == doctest::Approx(b4->static_power_watts()));
}

TEST_CASE("a per-number PHU models no precision and runs every product") {
  PhuSpec spec;
  spec.clock_hz = 1e9;
  const auto model = make_phu_model(spec);
  CHECK_FALSE(model->max_product_bits().has_value());
  ir::Node at16 = product();
  at16.required_bits = 16;
  CHECK(model->supports(at16));
}
