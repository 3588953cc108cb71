// The lightcode profile: the original LightCode's rules, quirks included
// (docs/LIGHTCODE_PROFILE.md). Its cost models are registered per family (register_all.cpp);
// here: the `start` pseudo-unit, the fixed transfer table, entry-0 input types, free edges
// into a subgraph from its start task, no data on the expansion's SRAM edges, graph outputs
// re-timed on SRAM, and the original's scheduler.
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
    return "the original LightCode's arithmetic and scheduler, quirks included (docs/LIGHTCODE_PROFILE.md)";
  }
  ir::InputTypeRule input_rule() const override { return ir::InputTypeRule::entry0; }

  void add_units(std::vector<UnitInfo>& units, const Registry& registry) const override {
    UnitInfo start;
    start.name = "start";
    start.family = registry.find(kStartFamily);
    start.compute = false;
    start.model = make_lightcode_start();
    units.push_back(std::move(start));
  }

  std::unique_ptr<TransferModel> make_transfers(const std::vector<UnitInfo>& units,
                                                const std::vector<LinkSpec>&) const override {
    std::vector<TransferRole> roles;
    for (const UnitInfo& u : units) roles.push_back(u.model->capabilities().role);
    return make_lightcode_transfer(roles);  // the links are checked, not used
  }
  bool links_queue() const override { return false; }
  bool start_tasks() const override { return true; }
  bool expansion_edges_move_data() const override { return false; }

  std::optional<Time> graph_output_on_sram(const Capabilities& unit, Time time) const override {
    // Quirk: outputs computed on the CPU are timed at the SRAM memory clock instead.
    if (unit.role != TransferRole::cpu || unit.clock_hz <= 0.0) return std::nullopt;
    return Time::from_seconds(time.seconds() * unit.clock_hz / lc::kSramClockHz);
  }

  std::string_view default_scheduler() const override { return "lightcode"; }
};

}  // namespace

std::unique_ptr<Profile> make_lightcode_profile() { return std::make_unique<LightcodeProfile>(); }

}  // namespace lightcode::hw
