#include "hw_models/registry.hpp"

#include <stdexcept>

namespace lightcode::hw {

void Registry::add(FamilyInfo family) {
  if (find(family.name)) throw std::logic_error("hardware family registered twice: " + family.name);
  families_.push_back(std::move(family));
}

const FamilyInfo* Registry::find(const std::string& name) const {
  for (const FamilyInfo& f : families_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const Registry& default_registry() {
  static const Registry registry = [] {
    Registry r;
    register_all(r);
    return r;
  }();
  return registry;
}

}  // namespace lightcode::hw
