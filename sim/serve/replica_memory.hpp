#pragma once
// A replica's KV-cache capacity in tokens: the memory that holds the model's inputs (its HBM,
// with the capacity from its datasheet: hw_models/resident_inputs.hpp) less the model's
// parameters, divided by one token's KV bytes for the model's geometry (layers x KV heads x
// head_dim x key and value, in the model's dtype). The parameters are those of the model's
// one-token prefill graph (its weights, and tables sized by one token). Errors
// (lightcode::Error): weights that do not fit (check_resident_inputs' message), or a system
// whose input memory has no capacity (nothing bounds the cache: give one).
// A replica of `tensor_parallel` devices (a tensor-parallel group: frontend/models/
// parallelism.hpp) holds on each device its share of the weights and of every token's KV heads,
// so its capacity in tokens is one device's free memory over one device's share of a token:
// the devices' memories summed.
#include <cstdint>

#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"

namespace lightcode::serve {

struct ReplicaMemory {
  int64_t capacity_bytes = 0;   // the input memory's
  int64_t parameter_bytes = 0;  // resident weights
  int64_t kv_bytes_per_token = 0;
  int64_t kv_tokens = 0;  // (capacity - parameters) / kv_bytes_per_token
};

ReplicaMemory replica_memory(const frontend::ModelConfig& config, const hw::System& system,
                             int64_t tensor_parallel = 1);

}  // namespace lightcode::serve
