#pragma once
// What one iteration of a batch costs a replica: its time (integer ps) and energy (pJ). The
// serving simulation asks this for every iteration it runs and charges exactly what it says;
// the real pipeline (frontend batch -> placed graph -> schedule) plugs in behind the same
// interface. LinearIterationCost is the closed-form model the tests hand-check.
//
// KV capacity is counted in tokens; kv_bytes_per_token converts a model's geometry so that a
// capacity in bytes becomes one in tokens (kv_capacity_tokens).
#include <cstdint>

#include "frontend/models/batch.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode::serve {

struct IterationEstimate {
  Time time;
  Energy energy;
};

class IterationCost {
 public:
  virtual ~IterationCost() = default;
  // Pure: the same batch always costs the same (the simulation's determinism rests on it).
  virtual IterationEstimate estimate(const frontend::Batch& batch) const = 0;
};

// time = fixed + per_new_token x sum(new_tokens) + per_context_token x sum(context);
// energy likewise per new token (pJ). All coefficients >= 0.
class LinearIterationCost : public IterationCost {
 public:
  LinearIterationCost(Time fixed, Time per_new_token, Time per_context_token = Time::zero(),
                      Energy per_new_token_energy = Energy::zero());
  IterationEstimate estimate(const frontend::Batch& batch) const override;

 private:
  Time fixed_, per_new_token_, per_context_token_;
  Energy per_new_token_energy_;
};

// Bytes one token occupies in the KV cache: a key and a value vector per layer and KV head.
int64_t kv_bytes_per_token(int64_t layers, int64_t kv_heads, int64_t head_dim,
                           int64_t bytes_per_element);
// Whole tokens that fit in `capacity_bytes`; lightcode::Error for a non-positive size.
int64_t kv_capacity_tokens(int64_t capacity_bytes, int64_t bytes_per_token);

}  // namespace lightcode::serve
