#pragma once
// A graph's inputs (memory nodes: weights, tokens, the KV cache) stay resident, for the whole
// run, in the memory whose model holds them (a `memory` unit of level hbm supports them). A
// memory with a capacity (HBM: the device's memory, from its datasheet) must hold them all;
// one that does not is an error before anything is placed, naming the bytes the model needs
// (its parameters, and its other inputs), the memory and the bytes it holds. Memories without
// a capacity (0: the seed's and the lightcode profile's) hold anything.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::hw {

// What the graph keeps in one memory with a capacity that holds some of its inputs.
struct ResidentLoad {
  UnitType memory = -1;
  int64_t capacity_bytes = 0;
  int64_t parameter_bytes = 0;  // the model's parameters
  int64_t other_bytes = 0;      // its other inputs (tokens, KV cache)
};
// One per such memory, in unit order; throws lightcode::Error when a sum overflows.
std::vector<ResidentLoad> resident_loads(const ir::Graph& graph, const System& system);

// Throws lightcode::Error as above; `model` names the model in the message.
void check_resident_inputs(const ir::Graph& graph, const System& system, const std::string& model);

}  // namespace lightcode::hw
