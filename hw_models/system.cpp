#include "hw_models/system.hpp"

#include "hw_models/link/link_spec.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

std::string family_list(const Registry& registry, Section section) {
  std::string s;
  for (const auto& f : registry.families()) {
    if (f.section == section) s += (s.empty() ? "" : ", ") + f.name;
  }
  return s;
}

UnitInfo make_unit(const std::string& name, const ConfigNode& spec, Section section, const Profile& profile,
                   const Registry& registry) {
  if (!spec.is_map()) spec.fail("expected a hardware spec mapping (e.g. {from: ../hardware/cpu.yaml})");
  const std::string family = spec.string("family");
  const FamilyInfo* info = registry.find(family);
  if (!info || info->section == Section::internal) {
    spec.at("family").fail("unknown hardware family '" + family + "' (known: " + family_list(registry, Section::units) +
                           ", " + family_list(registry, Section::memory) + ")");
  }
  if (info->section != section) {
    spec.fail("family '" + family + "' belongs under `" + (info->section == Section::memory ? "memory" : "units") +
              ":` (there: " + family_list(registry, info->section) + ")");
  }
  UnitInfo u;
  u.name = name;
  u.family = info;
  u.compute = section == Section::units;
  u.model = info->model_for(profile)(spec);
  u.spec = spec;
  return u;
}

}  // namespace

System System::load(const std::string& path, const Profile& profile, const Registry& registry) {
  return from_config(ConfigNode::load_file(path, "system file"), profile, registry);
}

System System::from_config(const ConfigNode& root, const Profile& profile, const Registry& registry) {
  root.allow_only({"name", "description", "units", "memory", "links"});
  System s;
  s.config_ = root;
  s.profile_ = &profile;
  s.name_ = root.string("name");
  const ConfigNode units = root.at("units");
  if (!units.is_map() || units.size() == 0) units.fail("expected at least one compute unit, e.g. {cpu: {from: ...}}");
  for (const std::string& key : units.keys()) {
    s.units_.push_back(make_unit(key, units.at(key), Section::units, profile, registry));
  }
  const ConfigNode memory = root.at("memory");
  if (!memory.is_map()) memory.fail("expected a mapping of memory units, e.g. {hbm: ..., sram: ...}");
  for (const std::string& key : memory.keys()) {
    s.units_.push_back(make_unit(key, memory.at(key), Section::memory, profile, registry));
  }
  if (s.find("sram") < 0) memory.fail("a system needs an `sram` memory (transfers without a direct link go through it)");
  if (s.find("hbm") < 0) memory.fail("a system needs an `hbm` memory (graph inputs and weights live there)");
  profile.add_units(s.units_, registry);

  // Links are checked in every profile, whether or not it moves data over them.
  std::vector<std::string> names;
  for (const UnitInfo& u : s.units_) names.push_back(u.name);
  const std::vector<LinkSpec> links = root.has("links") ? parse_links(root.at("links")) : std::vector<LinkSpec>{};
  const ConfigNode& where = root.has("links") ? root.at("links") : root;
  try {
    auto topology = std::make_unique<LinkTopology>(names, links);
    if (profile.links_queue()) s.topology_ = std::move(topology);
    s.transfers_ = profile.make_transfers(s.units_, links);
  } catch (const Error& e) {
    where.fail(e.what());
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
