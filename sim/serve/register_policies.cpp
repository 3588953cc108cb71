#include "sim/serve/register_policies.hpp"

#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/batching_prefill_first.hpp"
#include "sim/serve/batching_static.hpp"
#include "sim/serve/dispatch_prompt_length.hpp"

namespace lightcode::serve {

void register_policies(ServePolicies& r) {
  r.batching.push_back(continuous_batching());
  r.batching.push_back(static_batching());
  r.batching.push_back(prefill_first_batching());
  r.dispatch.push_back(round_robin_dispatch());
  r.dispatch.push_back(least_outstanding_tokens_dispatch());
  r.dispatch.push_back(prompt_length_dispatch());
  r.arrival.push_back(poisson_arrivals());
  r.arrival.push_back(gamma_arrivals());
  r.length.push_back(fixed_lengths());
  r.length.push_back(uniform_lengths());
  r.length.push_back(lognormal_lengths());
}

ServePolicies& policies() {
  static ServePolicies registry = [] {
    ServePolicies r;
    register_policies(r);
    return r;
  }();
  return registry;
}

}  // namespace lightcode::serve
