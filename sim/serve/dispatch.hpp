#pragma once
// Registered dispatch policies: which replica a request goes to, decided once, at its arrival.
//   round_robin              — replicas in turn, 0, 1, ..., n-1, 0, ...
//   least_outstanding_tokens — the replica with the fewest prompt + output tokens of requests
//                              dispatched to it and not finished (ties: the lowest index)
//   prompt_length            — the first [from, to] range (inclusive, tokens) of `ranges` that
//                              holds the prompt length names the replica; a length in no range
//                              is a lightcode::Error naming the request
// Looked up by name with named_in.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/serve/requests.hpp"

namespace lightcode::serve {

struct DispatchRange {
  int64_t from = 0, to = 0;  // prompt tokens, inclusive
  size_t replica = 0;
};

struct DispatchSpec {
  std::string policy = "round_robin";
  std::vector<DispatchRange> ranges;  // prompt_length
};

// What the dispatcher knows of the replicas at an arrival.
struct DispatchState {
  std::vector<int64_t> outstanding_tokens;  // per replica
  uint64_t dispatched = 0;                  // requests dispatched so far
};

struct DispatchPolicy {
  std::string_view name;
  std::string_view description;
  size_t (*choose)(const Request& request, const DispatchState& state, const DispatchSpec& spec);
};
const std::vector<DispatchPolicy>& dispatch_policies();

// lightcode::Error for an unknown policy, or a range that is empty or names no replica.
void validate_dispatch(const DispatchSpec& spec, size_t replicas);

}  // namespace lightcode::serve
