#include "hw_models/memory/memory_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace lightcode::hw {

// The largest capacity a memory may have: the model counts bytes in int64_t (capabilities.hpp),
// and this is below 2^63 with room for the double's rounding.
constexpr double kMaxCapacityBytes = 9.2e18;

const ParamTable& memory_params() {
  static const ParamTable table{
      "memory",
      "A memory (`family: memory`, under a system's `memory:`): `hbm` holds the graph's inputs "
      "(weights, tokens, "
      "KV cache), `sram` runs the split/merge bookkeeping around expanded photonic products. "
      "Energies are per "
      "32-bit number, as the original counts.",
      {
          Param::meta("family").doc("`memory`"),
          Param::meta("name").doc("display name"),
          Param::choice("level", {"hbm", "sram", "buffer"})
              .required()
              .doc("which memory this is, and so the roles it can play in a system: an hbm holds "
                   "the resident inputs, an sram stages photonic products and relays transfers"),
          Param::quantity("capacity", Dimension::data)
              .at_most(kMaxCapacityBytes, "capacities are counted in 64-bit integer bytes")
              .fallback("0 B")
              .doc("SRAM: the bound on tensors resident at once, checked by the event engine; HBM: "
                   "the device memory, which must hold the graph's inputs (weights, tokens, KV "
                   "cache), checked before placement (0: unlimited)"),
          Param::quantity("clock", Dimension::frequency)
              .positive()
              .fallback("6 GHz")
              .doc("SRAM: a bookkeeping op takes one cycle (the original's 6 GHz)"),
          Param::quantity("read_energy", Dimension::energy)
              .fallback("0 pJ")
              .doc("HBM: per number of a graph input read; lightcode profile: the memory's side of "
                   "its transfer energies"),
          Param::quantity("write_energy", Dimension::energy)
              .fallback("0 pJ")
              .doc("lightcode profile: the memory's side of the transfer energies into it"),
          Param::quantity("preload_energy", Dimension::energy)
              .fallback("0 pJ")
              .doc("HBM: per number of a graph input, once, to fill the memory"),
          Param::quantity("op_energy", Dimension::energy)
              .fallback("1 pJ")
              .doc("SRAM: per split/merge bookkeeping op (the original's 1 pJ)"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("idle or busy, charged over the makespan"),
      }};
  return table;
}

MemoryLevel memory_level(const Params& p) {
  const std::string level = p.choice("level");
  return level == "hbm" ? MemoryLevel::hbm : level == "sram" ? MemoryLevel::sram : MemoryLevel::buffer;
}

RoleSet memory_roles(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::hbm: return {Role::resident};
    case MemoryLevel::sram: return {Role::staging, Role::relay};
    case MemoryLevel::buffer: return {};
  }
  return {};
}

MemorySpec parse_memory_spec(const Params& p) {
  MemorySpec s;
  s.name = p.text_if("name").value_or("");
  s.level = memory_level(p);
  if (s.level == MemoryLevel::hbm) {
    s.capacity_bytes = p.quantity("capacity");  // the resident inputs' bound (resident_inputs.hpp)
    s.read_energy_j = p.quantity("read_energy");
    s.preload_energy_j = p.quantity("preload_energy");
  } else if (s.level == MemoryLevel::sram) {
    s.capacity_bytes = p.quantity("capacity");
    s.clock_hz = p.quantity("clock");
    s.op_energy_j = p.quantity("op_energy");
  }
  s.static_power_w = p.quantity("static_power");
  return s;
}

MemorySpec parse_memory_spec(const ConfigNode& node) {
  ConfigUsage usage;
  return parse_memory_spec(Params(node, memory_params(), usage));
}

std::vector<std::string> memory_spec_summary(const ConfigNode& node) {
  const MemorySpec s = parse_memory_spec(node);
  return {"capacity       " + (s.capacity_bytes > 0
                                   ? format_quantity(s.capacity_bytes, Dimension::data)
                                   : "unlimited")};
}

}  // namespace lightcode::hw
