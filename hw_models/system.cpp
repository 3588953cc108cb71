#include "hw_models/system.hpp"

#include <map>
#include <mutex>

#include "hw_models/link/link_spec.hpp"
#include "hw_models/system_diagnosis.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::hw {
namespace {

std::string family_list(const Registry& registry, Section section) {
  std::string s;
  for (const auto& f : registry.families()) {
    if (f.section == section) s += (s.empty() ? "" : ", ") + f.name;
  }
  return s;
}

// `count`, the key every unit of a system takes beside its family's.
const Param& count_param() {
  static const Param p =
      Param::count("count", limits::kParallelDegree)
          .fallback("1")
          .doc("devices of this unit in the system (system files only): units with a count above 1 are "
               "one per device (a GPU and its HBM: one per rank of a tensor-parallel group or pipeline "
               "stage, all with the same count), units with count 1 are shared by every device (the host, "
               "the interconnect)");
  return p;
}

}  // namespace

const ParamTable& unit_params(const ParamTable& family) {
  static std::map<const ParamTable*, ParamTable> tables;
  static std::mutex guard;
  const std::lock_guard<std::mutex> lock(guard);
  auto it = tables.find(&family);
  if (it == tables.end()) {
    ParamTable t = family;
    t.params.push_back(count_param());
    it = tables.emplace(&family, std::move(t)).first;
  }
  return it->second;
}

namespace {

UnitInfo make_unit(const std::string& name, const ConfigNode& spec, Section section,
                   const Profile& profile, const Registry& registry, ConfigUsage& usage) {
  if (!spec.is_map())
    spec.fail("expected a hardware spec mapping (e.g. {from: ../hardware/cpu.yaml})");
  const std::string family = spec.string("family");
  const FamilyInfo* info = registry.find(family);
  if (!info || info->section == Section::internal) {
    spec.at("family").fail("unknown hardware family '" + family +
                           "' (known: " + family_list(registry, Section::units) + ", " +
                           family_list(registry, Section::memory) + ")");
  }
  if (info->section != section) {
    spec.fail("family '" + family + "' belongs under `" +
              (info->section == Section::memory ? "memory" : "units") +
              ":` (there: " + family_list(registry, info->section) + ")");
  }
  if (!info->params)
    throw std::logic_error("family '" + family + "' registered without a parameter table");
  UnitInfo u;
  u.name = name;
  u.family = info;
  u.compute = section == Section::units;
  const Params params(spec, unit_params(*info->params), usage);
  u.count = params.count("count");
  u.model = info->model_for(profile)(params);
  u.spec = spec;
  return u;
}

// Every key of every unit and of the system itself must have been read by the models and the
// profile: a figure in a file that nothing uses is a figure a reader would wrongly trust.
void check_everything_read(const ConfigNode& root, const std::vector<UnitInfo>& units,
                           const Profile& profile, const ConfigUsage& usage) {
  for (const UnitInfo& u : units) {
    if (!u.family || !u.family->params) continue;
    check_all_read(u.spec, unit_params(*u.family->params), usage,
                   "the " + u.family->name + " model of unit '" + u.name + "' under profile '" +
                       std::string(profile.name()) + "'");
  }
  check_all_read(root, system_params(), usage, "profile '" + std::string(profile.name()) + "'");
}

}  // namespace

const ParamTable& system_params() {
  static const ParamTable table{
      "system",
      "A system (`configs/systems/*.yaml`): the units a graph can be placed on, their memories and "
      "the links "
      "between them. Each unit's spec names its `family:` and is read through that family's table; "
      "unit types "
      "are dense ids in file order (compute units, then memories, then units a profile adds).",
      {
          Param::text("name").required().doc("display name"),
          Param::meta("description").doc("free text"),
          Param::named("units", nullptr)
              .required()
              .doc("compute units: name -> hardware spec (family cpu, gpu, phu, interconnect, ...); every unit "
                   "spec, here and under `memory`, also takes `count` (default 1): the devices of it in the "
                   "system, all units above 1 with the same count (a DGX's GPUs and their HBM: one per rank of "
                   "a tensor-parallel group or pipeline stage), units of count 1 shared by every device"),
          Param::named("memory", nullptr)
              .required()
              .doc("memories: name -> spec (family memory); one that holds the resident inputs "
                   "(`level: hbm`) and one that stages photonic products (`level: sram`) are required"),
          Param::table("role", role_params())
              .doc("which unit plays a role where several could (default: the one able to)"),
          Param::tables("links", link_params())
              .doc("links between units (profiles with a fixed transfer table read none)"),
      }};
  return table;
}

System System::load(const std::string& path, const Profile& profile, const Registry& registry) {
  return from_config(ConfigNode::load_file(path, "system file"), profile, registry);
}

System System::from_config(const ConfigNode& root, const Profile& profile,
                           const Registry& registry) {
  reject_hardware_file(root, registry);
  try {
    return build(root, profile, registry);
  } catch (const Error& e) {
    // A file made for another profile loads under it: say so, and what to use instead.
    for (const auto& other : registry.profiles()) {
      if (other.get() == &profile) continue;
      try {
        build(root, *other, registry);
      } catch (const Error&) {
        continue;
      }
      throw made_for_other_profile(root, profile, *other, e);
    }
    throw;
  }
}

System System::build(const ConfigNode& root, const Profile& profile, const Registry& registry) {
  ConfigUsage usage;
  const Params params(root, system_params(), usage);
  System s;
  s.config_ = root;
  s.profile_ = &profile;
  s.name_ = params.text("name");
  const auto units = params.named_nodes("units");
  if (units.empty())
    root.at("units").fail("expected at least one compute unit, e.g. {cpu: {from: ...}}");
  for (const auto& [key, spec] : units) {
    s.units_.push_back(make_unit(key, spec, Section::units, profile, registry, usage));
  }
  for (const auto& [key, spec] : params.named_nodes("memory")) {
    s.units_.push_back(make_unit(key, spec, Section::memory, profile, registry, usage));
  }
  for (const UnitInfo& u : s.units_) {
    if (u.count == 1) continue;
    if (s.devices_ > 1 && u.count != s.devices_) {
      root.fail("units '" + u.name + "' (count " + std::to_string(u.count) + ") and others of count " +
                std::to_string(s.devices_) + ": the units one per device must all have the same count");
    }
    s.devices_ = u.count;
  }
  profile.add_units(s.units_, registry);
  s.roles_ = resolve_roles(s.units_, params.table_if("role"), root, profile);
  for (Role r : kRoles) {
    if (s.role_unit(r) >= 0) s.units_[static_cast<size_t>(s.role_unit(r))].plays.add(r);
  }

  std::vector<LinkSpec> links;
  if (profile.reads_links()) {
    std::vector<std::string> names;
    for (const UnitInfo& u : s.units_) names.push_back(u.name);
    links = parse_links(params, "links");
    try {
      auto topology = std::make_unique<LinkTopology>(names, links, s.role_unit(Role::relay));
      if (profile.links_queue()) s.topology_ = std::move(topology);
    } catch (const Error& e) {
      (root.has("links") ? root.at("links") : root).fail(e.what());
    }
  }
  try {
    s.transfers_ = profile.make_transfers(s.units_, links, usage);
  } catch (const Error& e) {
    if (!e.where().file.empty()) throw;
    (root.has("links") ? root.at("links") : root).fail(e.what());
  }
  check_everything_read(root, s.units_, profile, usage);
  return s;
}

double static_power_watts(const System& system) {
  double w = 0.0;
  for (size_t t = 0; t < system.unit_count(); ++t) {
    const HardwareModel& m = system.model(static_cast<UnitType>(t));
    w += m.static_power_watts() * m.unit_count();
  }
  return w;
}

std::vector<double> static_energy_pj(const System& system, Time makespan) {
  std::vector<double> out(system.unit_count(), 0.0);
  for (size_t t = 0; t < system.unit_count(); ++t) {
    const HardwareModel& m = system.model(static_cast<UnitType>(t));
    out[t] = check_energy(
        m.static_power_watts() * makespan.seconds() * m.unit_count() * kPicojoulesPerJoule,
        [&] { return "static energy of '" + system.unit(static_cast<UnitType>(t)).name + "'"; });
  }
  return out;
}

void System::require_devices(int64_t devices, const std::string& needs) const {
  if (devices <= devices_) return;
  throw Error(needs + "; system '" + name_ + "' has " + std::to_string(devices_) +
              " (the `count` of its units one per device, e.g. configs/systems/dgx_h100.yaml)");
}

bool System::models_precision() const {
  for (const UnitInfo& u : units_) {
    if (u.model->max_product_bits()) return true;
  }
  return false;
}

UnitType unit_playing(const std::vector<UnitInfo>& units, Role role) {
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].plays.has(role)) return static_cast<UnitType>(i);
  }
  return -1;
}

UnitType System::find(const std::string& name) const {
  for (size_t i = 0; i < units_.size(); ++i) {
    if (units_[i].name == name) return static_cast<UnitType>(i);
  }
  return -1;
}

}  // namespace lightcode::hw
