#include "hw_models/resident_inputs.hpp"

#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace lightcode::hw {

std::vector<ResidentLoad> resident_loads(const ir::Graph& graph, const System& system) {
  std::vector<ResidentLoad> loads;
  for (size_t u = 0; u < system.unit_count(); ++u) {
    const HardwareModel& m = system.model(static_cast<UnitType>(u));
    if (m.capabilities().capacity_bytes <= 0) continue;
    ResidentLoad load;
    load.memory = static_cast<UnitType>(u);
    load.capacity_bytes = m.capabilities().capacity_bytes;
    bool holds = false;
    for (const ir::Node& node : graph.nodes()) {
      if (node.kind != ir::OpKind::memory || !m.supports(node)) continue;
      holds = true;
      int64_t& sum =
          node.role == ir::MemoryRole::parameter ? load.parameter_bytes : load.other_bytes;
      sum = checked_add(sum, ir::total_bytes(node.outputs), "the bytes of the graph's inputs");
    }
    if (holds) loads.push_back(load);
  }
  return loads;
}

void check_resident_inputs(const ir::Graph& graph, const System& system, const std::string& model) {
  for (const ResidentLoad& l : resident_loads(graph, system)) {
    const int64_t needed =
        checked_add(l.parameter_bytes, l.other_bytes, "the bytes of the graph's inputs");
    if (needed <= l.capacity_bytes) continue;
    auto bytes = [](int64_t b) {
      return std::to_string(b) + " B (" + format_quantity(static_cast<double>(b), Dimension::data) +
             ")";
    };
    throw Error(model + " does not fit system '" + system.name() + "': its parameters take " +
                bytes(l.parameter_bytes) + " and its other inputs (tokens, KV cache) " +
                bytes(l.other_bytes) + ", " + bytes(needed) + " in all, but '" +
                system.unit(l.memory).name + "' holds " + bytes(l.capacity_bytes));
  }
}

}  // namespace lightcode::hw
