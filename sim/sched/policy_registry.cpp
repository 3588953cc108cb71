#include "sim/sched/policy.hpp"

namespace lightcode::sched {

void register_policies(PolicyRegistry& registry) {
  registry.add(make_list_policy());
  registry.add(make_lightcode_policy());
}

const PolicyRegistry& default_policies() {
  static const PolicyRegistry registry = [] {
    PolicyRegistry r;
    register_policies(r);
    return r;
  }();
  return registry;
}

}  // namespace lightcode::sched
