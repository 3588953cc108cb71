#include "sim/serve/replica_memory.hpp"

#include "frontend/models/model_builder.hpp"
#include "hw_models/resident_inputs.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/iteration_cost.hpp"

namespace lightcode::serve {

ReplicaMemory replica_memory(const frontend::ModelConfig& config, const hw::System& system,
                             int64_t tensor_parallel) {
  const frontend::Parallelism rank0{tensor_parallel, 0, 1, 0};
  const ir::Graph graph =
      frontend::build_model(config, frontend::Stage::prefill, 1, frontend::Logits::last, rank0);
  hw::check_resident_inputs(graph, system, config.name);
  const std::vector<hw::ResidentLoad> loads = hw::resident_loads(graph, system);
  if (loads.empty()) {
    throw Error("system '" + system.name() + "': the memory holding " + config.name +
                "'s inputs has no capacity, so nothing bounds the KV cache (give it `capacity:`)");
  }
  ReplicaMemory m;
  m.capacity_bytes = loads.front().capacity_bytes;
  m.parameter_bytes = loads.front().parameter_bytes;
  // One device's KV heads, by the builder's rule (the graph above checked that they divide).
  const int64_t kv_heads = frontend::rank_widths(config.num_attention_heads, config.num_key_value_heads,
                                                 config.intermediate_size, config.vocab_size, rank0)
                               .kv_heads;
  m.kv_bytes_per_token = kv_bytes_per_token(config.num_hidden_layers, kv_heads, config.head_dim(),
                                            ir::dtype_bytes(config.torch_dtype));
  m.kv_tokens = kv_capacity_tokens(m.capacity_bytes - m.parameter_bytes, m.kv_bytes_per_token);
  return m;
}

}  // namespace lightcode::serve
