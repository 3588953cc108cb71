#pragma once
// Static batching: up to max_batch requests, formed when max_batch are waiting or the oldest
// has waited `timeout` since its arrival; one iteration prefills all their prompts, then decode
// iterations until every member finished. Members that finish leave; none join until the batch
// is done.
#include <cstdint>

#include "sim/serve/batching.hpp"

namespace lightcode::serve {

struct StaticBatching : Batcher {
  // The defaults are static_batching().params's (a test compares them).
  int64_t max_batch = 32;
  Time timeout;

  StaticBatching() = default;
  StaticBatching(int64_t max_batch_, Time timeout_) : max_batch(max_batch_), timeout(timeout_) {}
  Formation form(ReplicaState& replica, Time now) const override;
};

BatchingPolicy static_batching();

}  // namespace lightcode::serve
