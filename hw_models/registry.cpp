#include "hw_models/registry.hpp"

#include <stdexcept>

namespace lightcode::hw {

ModelFactory FamilyInfo::model_for(const Profile& profile) const {
  for (const auto& entry : profile_models) {
    if (entry.first == profile.name()) return entry.second;
  }
  return make;
}

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

}  // namespace lightcode::hw
