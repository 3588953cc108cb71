#include "sim/serve/batching.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"

namespace lightcode::serve {
namespace {

Formation form_static(ReplicaState& r, const BatchingSpec& spec, Time now) {
  Formation f;
  if (!r.running.empty()) {  // a batch in progress: its members decode, nobody joins
    r.make_room_for_decodes();
    for (Sequence& s : r.running) f.slots.push_back(ReplicaState::decode_slot(s));
    return f;
  }
  if (r.queue.empty()) return f;
  const auto waiting = static_cast<int64_t>(r.queue.size());
  const Time due = r.queue.front().arrival + spec.timeout;
  if (waiting < spec.max_batch && now < due) {
    f.wake = due;
    return f;
  }
  // First come first served: the batch stops at the first request whose KV does not fit.
  while (static_cast<int64_t>(r.running.size()) < spec.max_batch && r.admit_head()) {
  }
  for (const Sequence& s : r.running) f.slots.push_back({s.request, s.prefill_target, 0, false});
  return f;
}

Formation form_continuous(ReplicaState& r, const BatchingSpec& spec, Time now) {
  (void)now;  // iteration-level batching never waits for company
  Formation f;
  r.make_room_for_decodes();
  int64_t budget = spec.token_budget;
  const auto full = [&] {
    return static_cast<int64_t>(f.slots.size()) >= spec.max_batch || budget <= 0;
  };
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
  while (!full() && static_cast<int64_t>(r.running.size()) < spec.max_batch && r.admit_head())
    chunk(r.running.back());
  return f;
}

}  // namespace

const std::vector<BatchingPolicy>& batching_policies() {
  static const std::vector<BatchingPolicy> policies = {
      {"static",
       "batches of up to max_batch requests, formed when max_batch wait or the oldest waited "
       "timeout; prefill together, then decode until all finished",
       form_static},
      {"continuous",
       "iteration-level batching with max_batch sequences and token_budget new tokens; decodes "
       "first, then chunked prefill first come first served",
       form_continuous},
  };
  return policies;
}

void validate_batching(const BatchingSpec& spec, size_t replica) {
  named_in(batching_policies(), spec.policy, "batching policy");
  const std::string where = "replica " + std::to_string(replica) + ": ";
  if (spec.max_batch < 1)
    throw Error(where + "max_batch must be >= 1, got " + std::to_string(spec.max_batch));
  if (spec.token_budget < 1)
    throw Error(where + "token_budget must be >= 1, got " + std::to_string(spec.token_budget));
  if (spec.timeout < Time::zero()) throw Error(where + "timeout must be >= 0");
}

}  // namespace lightcode::serve
