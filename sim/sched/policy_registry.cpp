#include <stdexcept>
#include <string>

#include "sim/core/error.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::sched {

void PolicyRegistry::add(std::unique_ptr<SchedulingPolicy> policy) {
  if (find(policy->name())) throw std::logic_error("scheduling policy registered twice: " + std::string(policy->name()));
  policies_.push_back(std::move(policy));
}

const SchedulingPolicy* PolicyRegistry::find(std::string_view name) const {
  for (const auto& p : policies_) {
    if (p->name() == name) return p.get();
  }
  return nullptr;
}

const SchedulingPolicy& PolicyRegistry::at(std::string_view name) const {
  if (const SchedulingPolicy* p = find(name)) return *p;
  std::string known;
  for (const auto& p : policies_) known += (known.empty() ? "" : ", ") + std::string(p->name());
  throw Error("unknown scheduler '" + std::string(name) + "' (known: " + known + ")");
}

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
