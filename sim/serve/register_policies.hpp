#pragma once
// The serving layer's registries: batching and dispatch policies, arrival processes and length
// distributions, each entry {name, description, parameter table, parse} (policy.hpp).
// register_policies() is the one place the shipped ones are added; nothing registers itself.
// A test may add its own entry to policies() (a test-only batching policy with a knob of its
// own runs end to end through a scenario).
#include "sim/serve/arrivals.hpp"
#include "sim/serve/batching.hpp"
#include "sim/serve/dispatch.hpp"
#include "sim/serve/lengths.hpp"

namespace lightcode::serve {

struct ServePolicies {
  PolicyList<Batcher> batching;
  PolicyList<Dispatcher> dispatch;
  PolicyList<Arrivals> arrival;
  PolicyList<Lengths> length;
};

void register_policies(ServePolicies& registry);
// The process's registries, registered on first use.
ServePolicies& policies();

}  // namespace lightcode::serve
