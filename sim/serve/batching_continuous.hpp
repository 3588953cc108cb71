#pragma once
// Continuous batching (Orca, vLLM): iteration-level; at most max_batch sequences and
// token_budget new tokens per iteration; decode steps first (one token each, in admission
// order), then prefill chunks first come first served: a prompt longer than what is left of
// the budget is split across iterations, each chunk's context being the prompt tokens already
// processed. Never waits for company.
#include <cstdint>

#include "sim/serve/batching.hpp"

namespace lightcode::serve {

struct ContinuousBatching : BudgetedBatching<512> {
  using BudgetedBatching::BudgetedBatching;
  Formation form(ReplicaState& replica, Time now) const override;
};

BatchingPolicy continuous_batching();

}  // namespace lightcode::serve
