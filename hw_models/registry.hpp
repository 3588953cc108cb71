#pragma once
// Explicit registry of hardware families (with their algorithms, cost models and SystemC
// modules) and profiles. register_all() (hw_models/register_all.cpp) is the one place every
// family and profile is added; nothing registers itself. A test may build its own registry
// with more (a test-only family runs end to end through it).
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/profile.hpp"
#include "hw_models/unit_modules.hpp"
#include "sim/core/config.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

struct AlgorithmInfo {
  std::string name;
  std::string description;  // which ops, how
};

// Builds a unit's cost model from its spec, read through the family's parameter table: every
// key the model uses is read through `spec` (so a key it never reads is reported).
using ModelFactory = std::unique_ptr<HardwareModel> (*)(const Params& spec);
// What `lightcode hw show` prints about a unit beside its spec: derived peak rates and the
// like, one line each ("peak FP32      1.2 TFLOP/s (...)").
using SpecSummary = std::vector<std::string> (*)(const ConfigNode& spec);

// Where a family's units belong in a system file.
enum class Section { units, memory, internal };  // internal: added by a profile, never in a file

struct FamilyInfo {
  std::string name;         // the `family:` value in hardware YAML
  std::string description;
  std::vector<AlgorithmInfo> algorithms;
  Section section = Section::units;
  ModelFactory make = nullptr;                                      // its cost model
  std::vector<std::pair<std::string, ModelFactory>> profile_models;  // per profile name, if different
  ModuleFactory make_modules = nullptr;                             // its SystemC modules
  SpecSummary summary = nullptr;                                    // `hw show` lines
  const ParamTable* params = nullptr;  // its keys (docs/CONFIG.md, `hw show`, unread-key check)

  // The cost-model factory under `profile`.
  ModelFactory model_for(const Profile& profile) const;
};

class Registry {
 public:
  void add(FamilyInfo family);  // a duplicate name is a programming error (throws)
  void add(std::unique_ptr<Profile> profile) { profiles_.add(std::move(profile)); }
  const FamilyInfo* find(const std::string& name) const;
  const std::vector<FamilyInfo>& families() const { return families_; }
  // Throws lightcode::Error naming the unknown profile and listing the known ones.
  const Profile& profile(std::string_view name) const { return profiles_.at(name); }
  const Profile* find_profile(std::string_view name) const { return profiles_.find(name); }
  const std::vector<std::unique_ptr<Profile>>& profiles() const { return profiles_.all(); }

 private:
  std::vector<FamilyInfo> families_;
  NamedRegistry<Profile> profiles_{"profile"};
};

// Adds the cpu, gpu, phu and memory families, the lightcode profile's start unit, and the
// default and lightcode profiles.
void register_all(Registry& registry);
// A registry with everything registered, built on first use.
const Registry& default_registry();
// default_registry().profile(name).
const Profile& profile_named(std::string_view name);

}  // namespace lightcode::hw
