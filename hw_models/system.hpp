#pragma once
// A system: the unit types a graph can be placed on, their cost models and the links between
// them, loaded from configs/systems/*.yaml for one profile:
//   name: CPU/PHU
//   units:   {cpu: {from: ../hardware/cpu_lightcode.yaml}, phu: {from: ...}}   compute
//   memory:  {hbm: {from: ...}, sram: {from: ...}}                              memory
//   links:   [{src: hbm, dst: sram, latency: ..., bandwidth: ..., energy_per_bit: ...}, ...]
// Every unit's spec names its family; the registry builds the model. Unit types are dense ids
// in file order: compute units first, then memory; the lightcode profile adds `start`.
#include <memory>
#include <string>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/link/link_topology.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/transfer_model.hpp"
#include "sim/core/config.hpp"
#include "sim/core/profile.hpp"

namespace lightcode::hw {

struct UnitInfo {
  std::string name;    // key in the system file: "cpu", "phu", "hbm", "sram", "start"
  std::string family;  // "cpu", "gpu", "phu", "memory"
  bool compute = true; // from `units:` (false for memory and start)
  std::unique_ptr<HardwareModel> model;
  ConfigNode spec;     // resolved spec, for `hw show`
};

class System {
 public:
  static System load(const std::string& path, Profile profile,
                     const Registry& registry = default_registry());
  static System from_config(const ConfigNode& root, Profile profile,
                            const Registry& registry = default_registry());

  const std::string& name() const { return name_; }
  Profile profile() const { return profile_; }
  size_t unit_count() const { return units_.size(); }
  const UnitInfo& unit(UnitType t) const { return units_[static_cast<size_t>(t)]; }
  const HardwareModel& model(UnitType t) const { return *units_[static_cast<size_t>(t)].model; }
  UnitType find(const std::string& name) const;  // -1 when absent
  const TransferModel& transfers() const { return *transfers_; }
  // The links and routes (default profile); nullptr in the lightcode profile, whose
  // transfer table has no links to share.
  const LinkTopology* topology() const { return topology_.get(); }
  const ConfigNode& config() const { return config_; }

 private:
  System() = default;
  std::string name_;
  Profile profile_ = Profile::standard;
  std::vector<UnitInfo> units_;
  std::unique_ptr<TransferModel> transfers_;
  std::unique_ptr<LinkTopology> topology_;
  ConfigNode config_;
};

}  // namespace lightcode::hw
