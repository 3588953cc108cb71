#pragma once
// Explicit registry of hardware families and their algorithms. register_all() (in
// register_all.cpp) is the one place every family is added; nothing registers itself.
// A family's factory builds its cost model from a unit's spec for a profile.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "sim/core/config.hpp"
#include "sim/core/profile.hpp"

namespace lightcode::hw {

struct AlgorithmInfo {
  std::string name;
  std::string description;  // which ops, how
};

using ModelFactory =
    std::function<std::unique_ptr<HardwareModel>(const ConfigNode& spec, Profile profile)>;

struct FamilyInfo {
  std::string name;         // the `family:` value in hardware YAML
  std::string description;
  std::vector<AlgorithmInfo> algorithms;
  ModelFactory make;
};

class Registry {
 public:
  void add(FamilyInfo family);  // a duplicate name is a programming error (throws)
  const FamilyInfo* find(const std::string& name) const;
  const std::vector<FamilyInfo>& families() const { return families_; }

 private:
  std::vector<FamilyInfo> families_;
};

// Adds cpu, gpu, phu and memory. Called once by whoever needs a registry.
void register_all(Registry& registry);
// A registry with everything registered, built on first use.
const Registry& default_registry();

}  // namespace lightcode::hw
