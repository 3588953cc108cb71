#include "sim/serve/dispatch.hpp"

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"

namespace lightcode::serve {
namespace {

size_t round_robin(const Request&, const DispatchState& state, const DispatchSpec&) {
  return static_cast<size_t>(state.dispatched % state.outstanding_tokens.size());
}

size_t least_outstanding_tokens(const Request&, const DispatchState& state, const DispatchSpec&) {
  size_t best = 0;
  for (size_t i = 1; i < state.outstanding_tokens.size(); ++i) {
    if (state.outstanding_tokens[i] < state.outstanding_tokens[best]) best = i;
  }
  return best;
}

size_t prompt_length(const Request& request, const DispatchState&, const DispatchSpec& spec) {
  for (const DispatchRange& r : spec.ranges) {
    if (request.prompt_tokens >= r.from && request.prompt_tokens <= r.to) return r.replica;
  }
  throw Error("request " + std::to_string(request.id) + ": prompt length " +
              std::to_string(request.prompt_tokens) + " is in no range of the prompt_length table");
}

}  // namespace

const std::vector<DispatchPolicy>& dispatch_policies() {
  static const std::vector<DispatchPolicy> policies = {
      {"round_robin", "replicas in turn", round_robin},
      {"least_outstanding_tokens",
       "the replica with the fewest prompt + output tokens dispatched and not finished",
       least_outstanding_tokens},
      {"prompt_length", "a table of prompt-length ranges, each naming a replica", prompt_length},
  };
  return policies;
}

void validate_dispatch(const DispatchSpec& spec, size_t replicas) {
  named_in(dispatch_policies(), spec.policy, "dispatch policy");
  for (size_t i = 0; i < spec.ranges.size(); ++i) {
    const DispatchRange& r = spec.ranges[i];
    const std::string where = "dispatch range " + std::to_string(i) + ": ";
    if (r.from > r.to)
      throw Error(where + "from " + std::to_string(r.from) + " > to " + std::to_string(r.to));
    if (r.replica >= replicas)
      throw Error(where + "replica " + std::to_string(r.replica) + " does not exist (" +
                  std::to_string(replicas) + " replicas)");
  }
}

}  // namespace lightcode::serve
