#include "sim/serve/replica_memory.hpp"

#include "frontend/models/model_builder.hpp"
#include "hw_models/resident_inputs.hpp"
#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/iteration_cost.hpp"

namespace lightcode::serve {

ReplicaMemory replica_memory(const frontend::ModelConfig& config, const hw::System& system) {
  const ir::Graph graph =
      frontend::build_model(config, frontend::Stage::prefill, 1, frontend::Logits::last);
  hw::check_resident_inputs(graph, system, config.name);
  ReplicaMemory m;
  for (size_t u = 0; u < system.unit_count() && m.capacity_bytes == 0; ++u) {
    const hw::HardwareModel& model = system.model(static_cast<hw::UnitType>(u));
    const int64_t capacity = model.capabilities().capacity_bytes;
    if (capacity <= 0) continue;
    for (const ir::Node& node : graph.nodes()) {
      if (node.kind == ir::OpKind::memory && model.supports(node)) {
        m.capacity_bytes = capacity;
        break;
      }
    }
  }
  if (m.capacity_bytes == 0) {
    throw Error("system '" + system.name() + "': the memory holding " + config.name +
                "'s inputs has no capacity, so nothing bounds the KV cache (give it `capacity:`)");
  }
  for (const ir::Node& node : graph.nodes()) {
    if (node.kind == ir::OpKind::memory && node.role == ir::MemoryRole::parameter) {
      m.parameter_bytes =
          checked_add(m.parameter_bytes, ir::total_bytes(node.outputs), "the model's parameters");
    }
  }
  m.kv_bytes_per_token = kv_bytes_per_token(config.num_hidden_layers, config.num_key_value_heads,
                                            config.head_dim(), ir::dtype_bytes(config.torch_dtype));
  m.kv_tokens = kv_capacity_tokens(m.capacity_bytes - m.parameter_bytes, m.kv_bytes_per_token);
  return m;
}

}  // namespace lightcode::serve
