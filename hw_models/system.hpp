#pragma once
// A system: the unit types a graph can be placed on, their cost models and the links between
// them, loaded from configs/systems/*.yaml for one profile:
//   name: CPU/PHU
//   units:   {cpu: {from: ../hardware/cpu_lightcode.yaml}, phu: {from: ...}}   compute
//   memory:  {hbm: {from: ...}, sram: {from: ...}}                              memory
// A unit may take `count: N` (devices of it: a DGX's 8 GPUs and their HBM); devices() is that N.
//   links:   [{src: hbm, dst: sram, latency: ..., bandwidth: ..., energy_per_bit: ...}, ...]
// Every unit's spec names its family; the registry builds the model the family registered for
// the profile. Unit types are dense ids in file order: compute units first, then memory, then
// the units the profile adds (the lightcode profile's `start`). Links are checked in every
// profile; the profile decides how transfers use them.
// Which unit plays each role (roles.hpp: the staging, relay and resident memories, the start
// unit) is resolved once, here, from the units' capabilities and the file's `role:`
// (system_roles.hpp); code above hw_models/ asks role_unit(), never a unit's name.
// A file that is not a system for this profile says what it is: a hardware file names a
// system that uses it; a system file made for another profile (one it loads under) names
// its counterpart for this one (Profile::systems_folder).
#include <memory>
#include <string>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/link/link_topology.hpp"
#include "hw_models/profile.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/roles.hpp"
#include "hw_models/system_roles.hpp"
#include "hw_models/transfer_model.hpp"
#include "sim/core/config.hpp"

namespace lightcode::hw {

struct UnitInfo {
  std::string name;                   // key in the system file: "cpu", "phu", "hbm", "sram", "start"
  const FamilyInfo* family = nullptr; // its registered family
  bool compute = true;                // from `units:` (false for memory and profile units)
  std::unique_ptr<HardwareModel> model;
  ConfigNode spec;                    // resolved spec, for `hw show` and the SystemC modules
  RoleSet plays;                      // the roles it plays in its system (set once they are resolved)
  int64_t count = 1;                  // `count`: devices of it in the system; 1 = shared by all
};

// The unit of `units` that plays `role`, -1 if none (for a profile building its transfers).
UnitType unit_playing(const std::vector<UnitInfo>& units, Role role);

// The keys of a system file (a unit's spec is read through unit_params of its family's table).
const ParamTable& system_params();
// A family's table with the key every unit of a system takes beside the family's: `count`.
const ParamTable& unit_params(const ParamTable& family);

class System;
// Static energy per unit type, in pJ: static power x makespan x the type's instances, idle or
// busy. Every fidelity charges exactly this (the engine and the analytical report).
std::vector<double> static_energy_pj(const System& system, Time makespan);
// The whole system's static power (W): every unit type's, times its instances; 1 W = 1 pJ/ps.
double static_power_watts(const System& system);

class System {
 public:
  static System load(const std::string& path, const Profile& profile,
                     const Registry& registry = default_registry());
  static System from_config(const ConfigNode& root, const Profile& profile,
                            const Registry& registry = default_registry());

  const std::string& name() const { return name_; }
  const Profile& profile() const { return *profile_; }
  size_t unit_count() const { return units_.size(); }
  const UnitInfo& unit(UnitType t) const { return units_[static_cast<size_t>(t)]; }
  const HardwareModel& model(UnitType t) const { return *units_[static_cast<size_t>(t)].model; }
  UnitType find(const std::string& name) const;  // -1 when absent (for users' names)
  // The unit playing `role`: staging, relay and resident always exist once loaded; start
  // exactly under a profile with start tasks (else -1).
  UnitType role_unit(Role role) const { return roles_[static_cast<size_t>(role)]; }
  // Whether some unit limits the bits of the products it runs (HardwareModel::max_product_bits):
  // where none does, a required precision changes nothing.
  bool models_precision() const;
  const TransferModel& transfers() const { return *transfers_; }
  // The links and routes when transfers queue on them (Profile::links_queue); else nullptr.
  const LinkTopology* topology() const { return topology_.get(); }
  const ConfigNode& config() const { return config_; }
  // The devices the system has (the `count` of its units one per device), 1 when none has a
  // count: what tensor_parallel x pipeline_parallel may use.
  int64_t devices() const { return devices_; }
  // lightcode::Error "<needs>; system '<name>' has <devices> (...)" when `devices` exceeds them.
  void require_devices(int64_t devices, const std::string& needs) const;
  // Whether units of type `t` are one per device (count above 1), not shared by the devices.
  bool per_device(UnitType t) const { return unit(t).count > 1; }

 private:
  System() = default;
  static System build(const ConfigNode& root, const Profile& profile, const Registry& registry);
  std::string name_;
  const Profile* profile_ = nullptr;
  std::vector<UnitInfo> units_;
  RoleUnits roles_{};
  std::unique_ptr<TransferModel> transfers_;
  std::unique_ptr<LinkTopology> topology_;
  ConfigNode config_;
  int64_t devices_ = 1;
};

}  // namespace lightcode::hw
