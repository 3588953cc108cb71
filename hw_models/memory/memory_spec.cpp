#include "hw_models/memory/memory_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace lightcode::hw {

MemorySpec parse_memory_spec(const ConfigNode& node) {
  node.allow_only({"family", "name", "level", "capacity", "bandwidth", "clock", "read_energy",
                   "write_energy", "preload_energy", "op_energy", "static_power"});
  if (node.has("family") && node.string("family") != "memory") {
    node.at("family").fail("expected family 'memory', got '" + node.string("family") + "'");
  }
  MemorySpec s;
  if (node.has("name")) s.name = node.string("name");
  const std::string level = node.string("level");
  if (level == "hbm") {
    s.level = MemoryLevel::hbm;
  } else if (level == "sram") {
    s.level = MemoryLevel::sram;
  } else if (level == "buffer") {
    s.level = MemoryLevel::buffer;
  } else {
    node.at("level").fail("expected hbm, sram or buffer, got '" + level + "'");
  }
  s.capacity_bytes = node.non_negative_quantity_or("capacity", Dimension::data, 0.0);
  s.bandwidth = node.non_negative_quantity_or("bandwidth", Dimension::bandwidth, 0.0);
  if (node.has("clock")) s.clock_hz = node.positive_quantity("clock", Dimension::frequency);
  s.read_energy_j = node.non_negative_quantity_or("read_energy", Dimension::energy, 0.0);
  s.write_energy_j = node.non_negative_quantity_or("write_energy", Dimension::energy, 0.0);
  s.preload_energy_j = node.non_negative_quantity_or("preload_energy", Dimension::energy, 0.0);
  s.op_energy_j = node.non_negative_quantity_or("op_energy", Dimension::energy, s.op_energy_j);
  s.static_power_w = node.non_negative_quantity_or("static_power", Dimension::power, 0.0);
  return s;
}

std::vector<std::string> memory_spec_summary(const ConfigNode& node) {
  const MemorySpec s = parse_memory_spec(node);
  return {"bandwidth      " + (s.bandwidth > 0 ? format_quantity(s.bandwidth, Dimension::bandwidth) : "unlimited") +
          ", capacity " + (s.capacity_bytes > 0 ? format_quantity(s.capacity_bytes, Dimension::data) : "unlimited")};
}

}  // namespace lightcode::hw
