#pragma once
// Prefill-first batching: vLLM's default scheduler without chunked prefill (vLLM 0.5.x, the
// engine ML.ENERGY's v2 measurements ran). An iteration is either a prefill of whole waiting
// prompts or one decode step of every running sequence, never both:
//   - while sequences wait, the head of the queue is admitted (KV room for its prompt, fewer than
//     max_batch running) and prefilled whole, then the next, as long as their tokens stay within
//     token_budget (vLLM's max_num_batched_tokens); a prompt longer than the budget is prefilled
//     alone (vLLM refuses it instead; a scenario should keep prompts within the budget);
//   - when no one can be admitted, every running sequence decodes one token (preempting the most
//     recently admitted ones when the KV cache would overflow, as every policy here does);
//   - a prompt is admitted only while `watermark` of the KV cache stays free beside it (vLLM's
//     block manager: watermark 0.01 of its blocks), so a sequence just preempted for room waits
//     for others to finish instead of being admitted again at once and preempted again.
// Decodes therefore stall while prompts are prefilled: what chunked prefill (continuous) avoids.
#include <cstdint>

#include "sim/serve/batching.hpp"

namespace lightcode::serve {

struct PrefillFirstBatching : BudgetedBatching<4096> {
  // The share of the KV cache admission keeps free (vLLM's default watermark).
  static constexpr double kDefaultWatermark = 0.01;
  double watermark = kDefaultWatermark;

  PrefillFirstBatching() = default;
  PrefillFirstBatching(int64_t max_batch_, int64_t token_budget_, double watermark_ = kDefaultWatermark)
      : BudgetedBatching(max_batch_, token_budget_), watermark(watermark_) {}
  Formation form(ReplicaState& replica, Time now) const override;
};

BatchingPolicy prefill_first_batching();

}  // namespace lightcode::serve
