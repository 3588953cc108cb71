#include "hw_models/resident_inputs.hpp"

#include <vector>

#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace lightcode::hw {

void check_resident_inputs(const ir::Graph& graph, const System& system, const std::string& model) {
  const size_t units = system.unit_count();
  std::vector<int64_t> parameters(units, 0), other(units, 0);
  for (const ir::Node& node : graph.nodes()) {
    if (node.kind != ir::OpKind::memory) continue;
    for (size_t u = 0; u < units; ++u) {
      const HardwareModel& m = system.model(static_cast<UnitType>(u));
      if (m.capabilities().capacity_bytes <= 0 || !m.supports(node)) continue;
      int64_t& sum = node.role == ir::MemoryRole::parameter ? parameters[u] : other[u];
      sum = checked_add(sum, ir::total_bytes(node.outputs), "the bytes of the graph's inputs");
    }
  }
  for (size_t u = 0; u < units; ++u) {
    const int64_t capacity = system.model(static_cast<UnitType>(u)).capabilities().capacity_bytes;
    const int64_t needed = checked_add(parameters[u], other[u], "the bytes of the graph's inputs");
    if (capacity <= 0 || needed <= capacity) continue;
    auto bytes = [](int64_t b) {
      return std::to_string(b) + " B (" + format_quantity(static_cast<double>(b), Dimension::data) +
             ")";
    };
    throw Error(model + " does not fit system '" + system.name() + "': its parameters take " +
                bytes(parameters[u]) + " and its other inputs (tokens, KV cache) " +
                bytes(other[u]) + ", " + bytes(needed) + " in all, but '" +
                system.unit(static_cast<UnitType>(u)).name + "' holds " + bytes(capacity));
  }
}

}  // namespace lightcode::hw
