#pragma once
// Batching policies: how a replica that is free forms its next iteration from its queue and
// running sequences (replica_state.hpp holds the KV rules they share). Each is registered
// (register_policies.cpp) with its own parameter table and a parse (policy.hpp), and chosen by
// `policy:` in a scenario's `batching:` mapping (or a replica's own keys, merged over it):
//   continuous — iteration-level batching (batching_continuous.hpp)
//   static     — whole batches (batching_static.hpp)
//   prefill_first — vLLM without chunked prefill (batching_prefill_first.hpp)
// Every policy preempts the most recently admitted sequence when the decodes would outgrow the
// KV capacity (ReplicaState::make_room_for_decodes).
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/quantity.hpp"
#include "sim/serve/policy.hpp"
#include "sim/serve/replica_state.hpp"

namespace lightcode::serve {

// The next iteration of a free replica at `now`: its slots, or none with the time at which the
// policy wants to be asked again without another event (Time::max() for never).
struct Formation {
  std::vector<Slot> slots;
  Time wake = Time::max();
};

// A batching policy with its parameters.
class Batcher {
 public:
  virtual ~Batcher() = default;
  virtual Formation form(ReplicaState& replica, Time now) const = 0;
};

using BatchingPolicy = PolicyEntry<Batcher>;

// The selector of a `batching:` mapping: `policy` (default continuous).
const ParamTable& batching_table();
// `max_batch`, the row every policy that caps its batch declares (one default for all).
const Param& max_batch_row();

// A policy capped at max_batch sequences and token_budget new tokens an iteration (continuous,
// prefill_first); kBudget is its table's default budget (a test compares them).
template <int64_t kBudget>
struct BudgetedBatching : Batcher {
  int64_t max_batch = 32;
  int64_t token_budget = kBudget;

  BudgetedBatching() = default;
  BudgetedBatching(int64_t max_batch_, int64_t token_budget_) : max_batch(max_batch_), token_budget(token_budget_) {}
};
// Its parse from the keys max_batch and token_budget.
template <class Policy>
std::shared_ptr<const Batcher> parse_budgeted(const Params& p) {
  return std::make_shared<Policy>(p.count("max_batch"), p.count("token_budget"));
}

}  // namespace lightcode::serve
