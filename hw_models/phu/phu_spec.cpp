#include "hw_models/phu/phu_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace lightcode::hw {
namespace {

int count(const ConfigNode& node, std::string_view key) {
  return static_cast<int>(node.count(key, limits::kUnitCount));
}

// Optional keys default to an ideal converter: no latency, unlimited rate, no energy, one per
// core.
ConverterSpec parse_converter(const ConfigNode& n) {
  n.allow_only({"latency", "sample_rate", "energy_per_sample", "count"});
  ConverterSpec c;
  c.latency_s = n.non_negative_quantity_or("latency", Dimension::duration, 0.0);
  c.sample_rate = n.non_negative_quantity_or("sample_rate", Dimension::sample_rate, 0.0);
  c.energy_per_sample_j = n.non_negative_quantity_or("energy_per_sample", Dimension::energy, 0.0);
  if (n.has("count")) c.count = count(n, "count");
  return c;
}

}  // namespace

PhuSpec parse_phu_spec(const ConfigNode& node) {
  node.allow_only({"family", "name", "cores", "clock", "multiplex", "energy_per_mac", "dac", "adc",
                   "static_power"});
  if (node.has("family") && node.string("family") != "phu") {
    node.at("family").fail("expected family 'phu', got '" + node.string("family") + "'");
  }
  PhuSpec s;
  if (node.has("name")) s.name = node.string("name");
  s.cores = count(node, "cores");
  s.clock_hz = node.positive_quantity("clock", Dimension::frequency);
  s.multiplex = count(node, "multiplex");
  s.energy_per_mac_j =
      node.non_negative_quantity_or("energy_per_mac", Dimension::energy, s.energy_per_mac_j);
  if (const auto dac = node.find("dac")) s.dac = parse_converter(*dac);
  if (const auto adc = node.find("adc")) s.adc = parse_converter(*adc);
  s.static_power_w = node.non_negative_quantity_or("static_power", Dimension::power, 0.0);
  return s;
}

std::vector<std::string> phu_spec_summary(const ConfigNode& node) {
  const PhuSpec s = parse_phu_spec(node);
  std::vector<std::string> out;
  out.push_back("photonic MAC/s " + format_quantity(s.cores * s.multiplex * s.clock_hz, Dimension::mac_rate) + " (" +
                std::to_string(s.cores) + " cores x " + std::to_string(s.multiplex) + " wavelengths x " +
                format_quantity(s.clock_hz, Dimension::frequency) + ")");
  for (const auto& [name, c] : {std::pair<const char*, ConverterSpec>{"DAC", s.dac}, {"ADC", s.adc}}) {
    out.push_back(std::string(name) + "            " +
                  (c.sample_rate > 0 ? format_quantity(c.sample_rate * c.count, Dimension::sample_rate)
                                     : std::string("unlimited rate")) +
                  ", " + format_quantity(c.energy_per_sample_j, Dimension::energy) + "/sample, latency " +
                  format_quantity(c.latency_s, Dimension::duration));
  }
  return out;
}

}  // namespace lightcode::hw
