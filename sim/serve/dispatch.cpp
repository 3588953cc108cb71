#include "sim/serve/dispatch.hpp"

namespace lightcode::serve {
namespace {

struct RoundRobin : Dispatcher {
  size_t choose(const Request&, const DispatchState& state) const override {
    return static_cast<size_t>(state.dispatched % state.outstanding_tokens.size());
  }
};

struct LeastOutstandingTokens : Dispatcher {
  size_t choose(const Request&, const DispatchState& state) const override {
    size_t best = 0;
    for (size_t i = 1; i < state.outstanding_tokens.size(); ++i) {
      if (state.outstanding_tokens[i] < state.outstanding_tokens[best]) best = i;
    }
    return best;
  }
};

}  // namespace

std::shared_ptr<const Dispatcher> Dispatcher::bind(const DispatchContext&) const { return shared_from_this(); }

const ParamTable& dispatch_table() {
  static const ParamTable table{
      "scenario.dispatch",
      "Which replica each request goes to: `policy` chooses a registered dispatch policy, whose own "
      "keys sit beside it (`dispatch: round_robin` is short for `dispatch: {policy: round_robin}`).",
      {
          Param::text("policy").fallback("round_robin").doc(
              "a registered dispatch policy (round_robin, least_outstanding_tokens, prompt_length)"),
      }};
  return table;
}

std::shared_ptr<const Dispatcher> make_round_robin() { return std::make_shared<RoundRobin>(); }
std::shared_ptr<const Dispatcher> make_least_outstanding_tokens() { return std::make_shared<LeastOutstandingTokens>(); }

DispatchPolicy round_robin_dispatch() {
  static const ParamTable keys{"dispatch.round_robin", "Round robin: no keys of its own.", {}};
  return {"round_robin", "replicas in turn", &keys,
          [](const Params&) { return make_round_robin(); }};
}

DispatchPolicy least_outstanding_tokens_dispatch() {
  static const ParamTable keys{"dispatch.least_outstanding_tokens", "Least outstanding tokens: no keys of its own.", {}};
  return {"least_outstanding_tokens",
          "the replica with the fewest prompt + output tokens dispatched and not finished", &keys,
          [](const Params&) { return make_least_outstanding_tokens(); }};
}

}  // namespace lightcode::serve
