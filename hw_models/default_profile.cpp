// The default profile: physically sound. Families use their own cost models; transfers cross
// the system's links (time grows with bytes, queueing at event fidelity); every input edge
// is charged where it is read; the list scheduler.
#include "hw_models/link/link_transfer_model.hpp"
#include "hw_models/profile.hpp"
#include "hw_models/system.hpp"

namespace lightcode::hw {
namespace {

class DefaultProfile final : public Profile {
 public:
  std::string_view name() const override { return "default"; }
  std::string_view description() const override {
    return "physically sound: transfer time grows with bytes, every input edge counts, CTA waves on the GPU, "
           "DAC/ADC rates, static power";
  }
  std::unique_ptr<TransferModel> make_transfers(const std::vector<UnitInfo>& units,
                                                const std::vector<LinkSpec>& links, ConfigUsage&) const override {
    std::vector<std::string> names;
    for (const UnitInfo& u : units) names.push_back(u.name);
    return make_link_transfer_model(names, links, unit_playing(units, Role::relay));
  }
};

}  // namespace

std::unique_ptr<Profile> make_default_profile() { return std::make_unique<DefaultProfile>(); }

}  // namespace lightcode::hw
