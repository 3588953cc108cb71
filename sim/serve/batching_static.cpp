#include "sim/serve/batching_static.hpp"

namespace lightcode::serve {

Formation StaticBatching::form(ReplicaState& r, Time now) const {
  Formation f;
  if (!r.running.empty()) {  // a batch in progress: its members decode, nobody joins
    r.make_room_for_decodes();
    for (Sequence& s : r.running) f.slots.push_back(ReplicaState::decode_slot(s));
    return f;
  }
  if (r.queue.empty()) return f;
  const auto waiting = static_cast<int64_t>(r.queue.size());
  const Time due = r.queue.front().arrival + timeout;
  if (waiting < max_batch && now < due) {
    f.wake = due;
    return f;
  }
  // First come first served: the batch stops at the first request whose KV does not fit.
  while (static_cast<int64_t>(r.running.size()) < max_batch && r.admit_head()) {
  }
  for (const Sequence& s : r.running) f.slots.push_back({s.request, s.prefill_target, 0, false});
  return f;
}

BatchingPolicy static_batching() {
  static const ParamTable table{
      "batching.static",
      "Static batching: whole batches, prefilled together (sim/serve/batching_static.hpp).",
      {
          max_batch_row(),
          Param::quantity("timeout", Dimension::duration)
              .fallback("0 s")
              .doc("how long the oldest request waits for a full batch"),
      }};
  return {"static",
          "batches of up to max_batch requests, formed when max_batch wait or the oldest waited timeout; prefill "
          "together, then decode until all finished",
          &table, [](const Params& p) -> std::shared_ptr<const Batcher> {
            return std::make_shared<StaticBatching>(p.count("max_batch"), Time::from_seconds(p.quantity("timeout")));
          }};
}

}  // namespace lightcode::serve
