#include "sim/serve/batching_continuous.hpp"

#include <algorithm>

#include "sim/core/limits.hpp"

namespace lightcode::serve {

Formation ContinuousBatching::form(ReplicaState& r, Time now) const {
  (void)now;  // iteration-level batching never waits for company
  Formation f;
  r.make_room_for_decodes();
  int64_t budget = token_budget;
  const auto full = [&] { return static_cast<int64_t>(f.slots.size()) >= max_batch || budget <= 0; };
  for (Sequence& s : r.running) {
    if (full()) break;
    if (!s.decoding()) continue;
    f.slots.push_back(ReplicaState::decode_slot(s));
    budget -= 1;
  }
  const auto chunk = [&](const Sequence& s) {
    const int64_t n = std::min(s.prefill_target - s.prefilled, budget);
    f.slots.push_back({s.request, n, s.prefilled, false});
    budget -= n;
  };
  for (const Sequence& s : r.running) {
    if (full()) break;
    if (!s.decoding()) chunk(s);
  }
  while (!full() && static_cast<int64_t>(r.running.size()) < max_batch && r.admit_head()) chunk(r.running.back());
  return f;
}

BatchingPolicy continuous_batching() {
  static const ParamTable table{
      "batching.continuous",
      "Continuous batching: iteration-level, with chunked prefill (sim/serve/batching_continuous.hpp).",
      {
          max_batch_row(),
          Param::count("token_budget", limits::kSequenceLength)
              .fallback("512")
              .doc("new tokens in one iteration at most; a longer prompt is prefilled in chunks"),
      }};
  return {"continuous",
          "iteration-level batching with max_batch sequences and token_budget new tokens; decodes first, then "
          "chunked prefill first come first served",
          &table, &parse_budgeted<ContinuousBatching>};
}

}  // namespace lightcode::serve
