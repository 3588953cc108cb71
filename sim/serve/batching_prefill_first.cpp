#include "sim/serve/batching_prefill_first.hpp"

#include "sim/core/limits.hpp"

namespace lightcode::serve {

Formation PrefillFirstBatching::form(ReplicaState& r, Time now) const {
  (void)now;  // never waits for company
  Formation f;
  int64_t budget = token_budget;
  const auto keep_free = static_cast<int64_t>(watermark * static_cast<double>(r.kv_capacity));
  while (!r.queue.empty() && static_cast<int64_t>(r.running.size()) < max_batch) {
    const Sequence& head = r.queue.front();
    const int64_t tokens = head.prompt + head.generated;  // its prefill target once admitted
    if (!f.slots.empty() && tokens > budget) break;
    if (!r.admit_head(keep_free)) break;
    const Sequence& s = r.running.back();
    f.slots.push_back({s.request, s.prefill_target, 0, false});
    budget -= s.prefill_target;
    if (budget <= 0) break;
  }
  if (!f.slots.empty()) return f;
  r.make_room_for_decodes();
  for (Sequence& s : r.running) {
    if (static_cast<int64_t>(f.slots.size()) >= max_batch) break;
    if (s.decoding()) f.slots.push_back(ReplicaState::decode_slot(s));
  }
  return f;
}

BatchingPolicy prefill_first_batching() {
  static const ParamTable table{
      "batching.prefill_first",
      "Prefill-first batching: vLLM's scheduler without chunked prefill (sim/serve/batching_prefill_first.hpp).",
      {
          max_batch_row(),
          Param::count("token_budget", limits::kSequenceLength)
              .fallback("4096")
              .doc("prompt tokens one prefill iteration admits at most (vLLM's max_num_batched_tokens: "
                   "max(max_model_len, 2048) without chunked prefill; 4096 for a 4096-token model length)"),
          Param::real("watermark")
              .at_most(1.0)
              .fallback("0.01")  // PrefillFirstBatching::kDefaultWatermark
              .doc("share of the KV cache a prompt's admission leaves free (vLLM's block manager watermark, "
                   "default 0.01): a sequence preempted for room waits until others finish"),
      }};
  return {"prefill_first",
          "vLLM without chunked prefill: an iteration prefills whole waiting prompts (up to token_budget tokens) "
          "or decodes every running sequence one token, never both",
          &table, [](const Params& p) -> std::shared_ptr<const Batcher> {
            return std::make_shared<PrefillFirstBatching>(p.count("max_batch"), p.count("token_budget"),
                                                          p.real("watermark"));
          }};
}

}  // namespace lightcode::serve
