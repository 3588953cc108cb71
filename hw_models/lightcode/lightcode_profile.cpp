// The lightcode profile: the original LightCode's rules, quirks included
// (docs/LIGHTCODE_PROFILE.md). Its cost models are registered per family (register_all.cpp);
// here: the `start` pseudo-unit, the fixed transfer table, entry-0 input types, the original's
// partition (groups sharing their cut op), no data on the expansion's SRAM edges, and the
// original's scheduler (LIGHTCODE_MODEL.md, "Pipeline").
#include "hw_models/lightcode/lightcode_profile.hpp"

#include "hw_models/lightcode/lightcode_constants.hpp"
#include "hw_models/lightcode/lightcode_models.hpp"
#include "hw_models/lightcode/lightcode_transfer.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"

namespace lightcode::hw {
namespace {

class LightcodeProfile final : public Profile {
 public:
  std::string_view name() const override { return "lightcode"; }
  std::string_view description() const override {
    return "the original LightCode's arithmetic and scheduler, quirks included "
           "(docs/LIGHTCODE_PROFILE.md)";
  }
  ir::InputTypeRule input_rule() const override { return ir::InputTypeRule::entry0; }
  std::string_view systems_folder() const override { return "lightcode"; }  // configs/systems/lightcode/

  void add_units(std::vector<UnitInfo>& units, const Registry& registry) const override {
    UnitInfo start;
    start.name = "start";
    start.family = registry.find(kStartFamily);
    start.compute = false;
    start.model = make_lightcode_start();
    units.push_back(std::move(start));
  }

  // The original's fixed table: its hardware figures come from the memories' and the PHU's
  // specs (hbm/sram read and write energies, the SRAM clock, DAC and ADC energies).
  std::unique_ptr<TransferModel> make_transfers(const std::vector<UnitInfo>& units,
                                                const std::vector<LinkSpec>&,
                                                ConfigUsage& usage) const override {
    std::vector<TransferRole> roles;
    LightcodeTransferFigures f;
    for (const UnitInfo& u : units) {
      const Capabilities c = u.model->capabilities();
      roles.push_back(c.role);
      if (!u.family || !u.family->params) continue;
      const Params spec(u.spec, unit_params(*u.family->params), usage);
      const auto pj = [&](const Params& p, std::string_view key) {
        return p.quantity(key) * kPicojoulesPerJoule;
      };
      if (c.role == TransferRole::hbm) {
        f.hbm_read_pj = pj(spec, "read_energy");
        f.hbm_write_pj = pj(spec, "write_energy");
      } else if (c.role == TransferRole::sram) {
        f.sram_cycle_s = 1.0 / spec.quantity("clock");
        f.sram_read_pj = pj(spec, "read_energy");
        f.sram_write_pj = pj(spec, "write_energy");
      } else if (c.role == TransferRole::phu) {
        if (const auto dac = spec.table_if("dac")) f.dac_pj = pj(*dac, "energy_per_sample");
        if (const auto adc = spec.table_if("adc")) f.adc_pj = pj(*adc, "energy_per_sample");
      }
    }
    return make_lightcode_transfer(roles, f);
  }
  bool reads_links() const override { return false; }
  bool links_queue() const override { return false; }
  bool start_tasks() const override { return true; }
  bool expansion_edges_move_data() const override { return false; }

  std::string_view partition_rule() const override { return "original"; }

  std::string_view default_scheduler() const override { return "lightcode"; }
  bool logits_for_every_token() const override { return true; }
  bool fuses_kernels() const override { return false; }
  bool places_with_schedule() const override { return false; }
};

}  // namespace

std::unique_ptr<Profile> make_lightcode_profile() {
  return std::make_unique<LightcodeProfile>();
}

}  // namespace lightcode::hw
