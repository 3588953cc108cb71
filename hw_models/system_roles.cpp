#include "hw_models/system_roles.hpp"

#include <stdexcept>
#include <string>

#include "hw_models/profile.hpp"
#include "hw_models/system.hpp"

namespace lightcode::hw {
namespace {

struct RoleText {
  const char* what;     // "the staging memory"
  const char* able;     // which units can play it
  const char* example;  // what to add when none can
};

RoleText text_of(Role r) {
  switch (r) {
    case Role::staging:
      return {"the staging memory (photonic products are split, fed and merged there)", "a memory of `level: sram`",
              "`sram: {from: ../hardware/sram_seed.yaml}`"};
    case Role::relay:
      return {"the relay memory (transfers without a direct link go through it)", "a memory of `level: sram`",
              "`sram: {from: ../hardware/sram_seed.yaml}`"};
    case Role::resident:
      return {"the resident memory (the graph's inputs: weights, tokens, KV cache stay there)",
              "a memory of `level: hbm`", "`hbm: {from: ../hardware/hbm_seed.yaml}`"};
    case Role::start:
      return {"the start unit (each subgraph's start task)", "the profile's start unit", ""};
  }
  return {"", "", ""};
}

std::string names(const std::vector<UnitInfo>& units, const std::vector<UnitType>& which) {
  std::string s;
  for (UnitType t : which) s += (s.empty() ? "" : ", ") + units[static_cast<size_t>(t)].name;
  return s.empty() ? "none" : s;
}

std::vector<UnitType> able(const std::vector<UnitInfo>& units, Role r) {
  std::vector<UnitType> out;
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].model->capabilities().roles.has(r)) out.push_back(static_cast<UnitType>(i));
  }
  return out;
}

// The unit the file's `role:` names for `r`, checked; -1 when it names none.
UnitType chosen(const std::vector<UnitInfo>& units, const std::optional<Params>& role, Role r,
                const std::vector<UnitType>& can) {
  const std::string_view key = role_key(r);
  if (!role || !role->table().find(key) || !role->has(key)) return -1;
  const std::string name = role->text(key);
  std::vector<UnitType> all;
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].name == name) {
      const auto t = static_cast<UnitType>(i);
      for (UnitType c : can) {
        if (c == t) return t;
      }
      role->at(key).fail("unit '" + name + "' cannot be " + text_of(r).what + "; " + text_of(r).able +
                         " can (here: " + names(units, can) + ")");
    }
    all.push_back(static_cast<UnitType>(i));
  }
  role->at(key).fail("'" + name + "' is not a unit of this system (units: " + names(units, all) + ")");
}

}  // namespace

const ParamTable& role_params() {
  static const ParamTable table{
      "system.role",
      "Which unit plays each role of the system, where more than one could (units are named by "
      "their key under `units:` or `memory:`). A role nobody names goes to the one unit able to "
      "play it; where several are able, naming one is required.",
      {
          Param::text("staging").doc(
              "the memory that stages photonic products: their split and merge run there, their "
              "2-D products read operands from it and write results to it, and its capacity bounds "
              "what stays on chip (default: the one memory of `level: sram`)"),
          Param::text("relay").doc(
              "the memory a transfer between two units without a direct link is stored in and "
              "forwarded from (default: the staging memory)"),
          Param::text("resident").doc(
              "the memory the graph's inputs (weights, tokens, KV cache) stay resident in "
              "(default: the one memory of `level: hbm`)"),
      }};
  return table;
}

RoleUnits resolve_roles(const std::vector<UnitInfo>& units, const std::optional<Params>& role,
                        const ConfigNode& root, const Profile& profile) {
  RoleUnits out;
  out.fill(-1);
  const ConfigNode where = root.has("memory") ? root.at("memory") : root;
  // Staging first: the relay defaults to it.
  for (Role r : {Role::staging, Role::resident, Role::relay, Role::start}) {
    const std::vector<UnitType> can = able(units, r);
    UnitType& unit = out[static_cast<size_t>(r)];
    unit = chosen(units, role, r, can);
    if (unit >= 0) continue;
    if (r == Role::relay) {
      unit = out[static_cast<size_t>(Role::staging)];
      continue;
    }
    if (can.size() == 1) {
      unit = can.front();
      continue;
    }
    const RoleText t = text_of(r);
    if (r == Role::start) {
      if (!can.empty() || profile.start_tasks()) {
        throw std::logic_error("profile '" + std::string(profile.name()) + "' adds " +
                               std::to_string(can.size()) + " start units; its start tasks need one");
      }
      continue;
    }
    if (can.empty()) {
      where.fail("no unit of this system can be " + std::string(t.what) + ": add " + t.able +
                 " under `memory:`, e.g. " + t.example);
    }
    where.fail("units " + names(units, can) + " can each be " + t.what + ": say which under `role:`, e.g. `role: {" +
               std::string(role_key(r)) + ": " + units[static_cast<size_t>(can.front())].name + "}`");
  }
  return out;
}

}  // namespace lightcode::hw
