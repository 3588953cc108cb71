#pragma once
// Prefill-first batching: vLLM's default scheduler without chunked prefill (vLLM 0.5.x, the
// engine ML.ENERGY's v2 measurements ran). An iteration is either a prefill of whole waiting
// prompts or one decode step of every running sequence, never both:
//   - while sequences wait, the head of the queue is admitted (KV room for its prompt, fewer than
//     max_batch running) and prefilled whole, then the next, as long as their tokens stay within
//     token_budget (vLLM's max_num_batched_tokens); a prompt longer than the budget is prefilled
//     alone (vLLM refuses it instead; a scenario should keep prompts within the budget);
//   - when no one can be admitted, every running sequence decodes one token (preempting the most
//     recently admitted ones when the KV cache would overflow, as every policy here does).
// Decodes therefore stall while prompts are prefilled: what chunked prefill (continuous) avoids.
#include <cstdint>

#include "sim/serve/batching.hpp"

namespace lightcode::serve {

struct PrefillFirstBatching : BudgetedBatching<4096> {
  using BudgetedBatching::BudgetedBatching;
  Formation form(ReplicaState& replica, Time now) const override;
};

BatchingPolicy prefill_first_batching();

}  // namespace lightcode::serve
