#include "hw_models/system.hpp"

#include "hw_models/lightcode/lightcode_models.hpp"
#include "hw_models/lightcode/lightcode_transfer.hpp"
#include "hw_models/link/link_spec.hpp"
#include "hw_models/link/link_transfer_model.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

std::string family_list(const Registry& registry) {
  std::string s;
  for (const auto& f : registry.families()) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

UnitInfo make_unit(const std::string& name, const ConfigNode& spec, bool compute, Profile profile,
                   const Registry& registry) {
  if (!spec.is_map()) spec.fail("expected a hardware spec mapping (e.g. {from: ../hardware/cpu.yaml})");
  const std::string family = spec.string("family");
  const FamilyInfo* info = registry.find(family);
  if (!info) spec.at("family").fail("unknown hardware family '" + family + "' (known: " + family_list(registry) + ")");
  if (compute && family == "memory") spec.fail("memory units belong under `memory:`, not `units:`");
  if (!compute && family != "memory") spec.fail("only family `memory` belongs under `memory:`");
  UnitInfo u;
  u.name = name;
  u.family = family;
  u.compute = compute;
  u.model = info->make(spec, profile);
  u.spec = spec;
  return u;
}

LightcodeRole role_of(const UnitInfo& u) {
  if (u.family == "cpu") return LightcodeRole::cpu;
  if (u.family == "gpu") return LightcodeRole::gpu;
  if (u.family == "phu") return LightcodeRole::phu;
  if (u.family == "start") return LightcodeRole::start;
  return parse_memory_spec(u.spec).level == MemoryLevel::hbm ? LightcodeRole::hbm : LightcodeRole::sram;
}

}  // namespace

System System::load(const std::string& path, Profile profile, const Registry& registry) {
  return from_config(ConfigNode::load_file(path), profile, registry);
}

System System::from_config(const ConfigNode& root, Profile profile, const Registry& registry) {
  root.allow_only({"name", "description", "units", "memory", "links"});
  System s;
  s.config_ = root;
  s.profile_ = profile;
  s.name_ = root.string("name");
  const ConfigNode units = root.at("units");
  if (!units.is_map() || units.size() == 0) units.fail("expected at least one compute unit, e.g. {cpu: {from: ...}}");
  for (const std::string& key : units.keys()) {
    s.units_.push_back(make_unit(key, units.at(key), true, profile, registry));
  }
  const ConfigNode memory = root.at("memory");
  if (!memory.is_map()) memory.fail("expected a mapping of memory units, e.g. {hbm: ..., sram: ...}");
  for (const std::string& key : memory.keys()) {
    s.units_.push_back(make_unit(key, memory.at(key), false, profile, registry));
  }
  if (s.find("sram") < 0) memory.fail("a system needs an `sram` memory (transfers without a direct link go through it)");
  if (s.find("hbm") < 0) memory.fail("a system needs an `hbm` memory (graph inputs and weights live there)");

  // Links are checked in every profile (the lightcode profile then uses the original's fixed
  // transfer table instead): a typo in them is an error whichever profile runs.
  std::vector<std::string> names;
  for (const UnitInfo& u : s.units_) names.push_back(u.name);
  const std::vector<LinkSpec> links = root.has("links") ? parse_links(root.at("links")) : std::vector<LinkSpec>{};
  std::unique_ptr<LinkTopology> topology;
  try {
    topology = std::make_unique<LinkTopology>(names, links);
  } catch (const Error& e) {
    (root.has("links") ? root.at("links") : root).fail(e.what());
  }
  if (profile == Profile::lightcode) {
    UnitInfo start;
    start.name = "start";
    start.family = "start";
    start.compute = false;
    start.model = make_lightcode_start();
    s.units_.push_back(std::move(start));
    std::vector<LightcodeRole> roles;
    for (const UnitInfo& u : s.units_) roles.push_back(role_of(u));
    s.transfers_ = make_lightcode_transfer(roles);
  } else {
    s.topology_ = std::move(topology);
    try {
      s.transfers_ = make_link_transfer_model(names, links);
    } catch (const Error& e) {
      (root.has("links") ? root.at("links") : root).fail(e.what());
    }
  }
  return s;
}

UnitType System::find(const std::string& name) const {
  for (size_t i = 0; i < units_.size(); ++i) {
    if (units_[i].name == name) return static_cast<UnitType>(i);
  }
  return -1;
}

}  // namespace lightcode::hw
