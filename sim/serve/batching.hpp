#pragma once
// Registered batching policies: how a replica that is free forms its next iteration from its
// queue and running sequences (replica_state.hpp holds the KV rules they share).
//   static     — up to max_batch requests, formed when max_batch are waiting or the oldest has
//                waited `timeout` since its arrival; one iteration prefills all their prompts,
//                then decode iterations until every member finished. Members that finish leave;
//                none join until the batch is done.
//   continuous — iteration-level batching (Orca, vLLM): at most max_batch sequences and
//                token_budget new tokens per iteration; decode steps first (one token each, in
//                admission order), then prefill chunks first come first served: a prompt longer
//                than what is left of the budget is split across iterations, each chunk's
//                context being the prompt tokens already processed.
// Both preempt the most recently admitted sequence when the decodes would outgrow the KV
// capacity. Looked up by name with named_in.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/serve/replica_state.hpp"

namespace lightcode::serve {

struct BatchingSpec {
  std::string policy = "continuous";
  int64_t max_batch = 8;       // sequences per iteration, >= 1
  Time timeout;                // static: the longest the oldest request waits for a full batch
  int64_t token_budget = 512;  // continuous: new tokens per iteration, >= 1
};

// The next iteration of a free replica at `now`: its slots, or none with the time at which the
// policy wants to be asked again without another event (Time::max() for never).
struct Formation {
  std::vector<Slot> slots;
  Time wake = Time::max();
};

struct BatchingPolicy {
  std::string_view name;
  std::string_view description;
  Formation (*form)(ReplicaState& replica, const BatchingSpec& spec, Time now);
};
const std::vector<BatchingPolicy>& batching_policies();  // static, continuous

// lightcode::Error naming the replica and the parameter out of range, or the unknown policy.
void validate_batching(const BatchingSpec& spec, size_t replica);

}  // namespace lightcode::serve
