#include "sim/serve/iteration_cost.hpp"

#include <string>

#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"

namespace lightcode::serve {

LinearIterationCost::LinearIterationCost(Time fixed, Time per_new_token, Time per_context_token,
                                         Energy per_new_token_energy)
    : fixed_(fixed),
      per_new_token_(per_new_token),
      per_context_token_(per_context_token),
      per_new_token_energy_(per_new_token_energy) {
  if (per_new_token_energy.picojoules() < 0.0)
    throw Error("linear iteration cost: energy per new token must be >= 0");
}

IterationEstimate LinearIterationCost::estimate(const frontend::Batch& batch) const {
  int64_t new_tokens = 0, context = 0;
  for (const frontend::SequenceSlot& s : batch.sequences) {
    new_tokens += s.new_tokens;
    context += s.context;
  }
  IterationEstimate e;
  e.time = fixed_ + per_new_token_ * new_tokens + per_context_token_ * context;
  e.energy = per_new_token_energy_ * static_cast<double>(new_tokens);
  return e;
}

int64_t kv_bytes_per_token(int64_t layers, int64_t kv_heads, int64_t head_dim,
                           int64_t bytes_per_element) {
  if (layers < 1 || kv_heads < 1 || head_dim < 1 || bytes_per_element < 1)
    throw Error(
        "kv_bytes_per_token: layers, kv_heads, head_dim and bytes per element must be >= 1");
  int64_t bytes = 2;  // a key and a value
  for (int64_t f : {layers, kv_heads, head_dim, bytes_per_element})
    bytes = checked_mul(bytes, f, "the size of one token's KV cache");
  return bytes;
}

int64_t kv_capacity_tokens(int64_t capacity_bytes, int64_t bytes_per_token) {
  if (capacity_bytes < 1 || bytes_per_token < 1)
    throw Error("kv_capacity_tokens: capacity (" + std::to_string(capacity_bytes) +
                " B) and bytes per token (" + std::to_string(bytes_per_token) + " B) must be >= 1");
  return capacity_bytes / bytes_per_token;
}

}  // namespace lightcode::serve
