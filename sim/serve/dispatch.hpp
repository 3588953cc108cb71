#pragma once
// Dispatch policies: which replica a request goes to, decided once, at its arrival. Each is
// registered (register_policies.cpp) with its parameter table and a parse (policy.hpp), chosen
// by `policy:` in a scenario's `dispatch:` mapping (`dispatch: round_robin` is short for
// `dispatch: {policy: round_robin}`):
//   round_robin              — replicas in turn, 0, 1, ..., n-1, 0, ...
//   least_outstanding_tokens — the replica with the fewest prompt + output tokens of requests
//                              dispatched to it and not finished (ties: the lowest index)
//   prompt_length            — a `lightcode crossover` dispatch table (dispatch_prompt_length.hpp)
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/serve/policy.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

// What the dispatcher knows of the replicas at an arrival.
struct DispatchState {
  std::vector<int64_t> outstanding_tokens;  // per replica
  uint64_t dispatched = 0;                  // requests dispatched so far
};

// The serving point a dispatcher is bound to before the run.
struct DispatchContext {
  std::string model, profile, objective;   // the point's
  std::vector<std::string> replica_names;  // each replica's system name, by index
  const std::vector<Request>* requests = nullptr;
};

class Dispatcher : public std::enable_shared_from_this<Dispatcher> {
 public:
  virtual ~Dispatcher() = default;
  virtual size_t choose(const Request& request, const DispatchState& state) const = 0;
  // Reads and checks what the policy needs beyond its keys (a dispatch table) before any
  // point runs; lightcode::Error naming it.
  virtual void check_inputs() const {}
  // The files check_inputs() reads (none by default).
  virtual std::vector<std::string> input_files() const { return {}; }
  // The dispatcher to run the point with: one bound to its replicas and requests (this one when
  // there is nothing to bind). lightcode::Error when it cannot serve them.
  virtual std::shared_ptr<const Dispatcher> bind(const DispatchContext& context) const;
  // lightcode::Error when the dispatcher names a replica beyond `replicas`.
  virtual void validate(size_t replicas) const { (void)replicas; }
};

using DispatchPolicy = PolicyEntry<Dispatcher>;

// The selector of a `dispatch:` mapping: `policy` (default round_robin).
const ParamTable& dispatch_table();

// round_robin, least_outstanding_tokens (their classes are private to dispatch.cpp), and
// dispatchers of each for code that builds a serving run itself.
DispatchPolicy round_robin_dispatch();
DispatchPolicy least_outstanding_tokens_dispatch();
std::shared_ptr<const Dispatcher> make_round_robin();
std::shared_ptr<const Dispatcher> make_least_outstanding_tokens();

}  // namespace lightcode::serve
