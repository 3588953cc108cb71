// `lightcode hw list` and `lightcode hw show <system.yaml>`: what hardware exists, and what a
// system resolves to with its derived peak rates.
#include <iostream>
#include <memory>
#include <string>

#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/listing.hpp"
#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace lightcode::app {
namespace {

void print_system(std::ostream& out, const hw::System& sys) {
  out << "system   " << sys.name() << "  (profile " << sys.profile().name()
      << (sys.profile().fuses_kernels() ? "" : "; it runs every op as its own kernel, fusion rules aside") << ")\n";
  std::string roles;
  for (hw::Role r : hw::kRoles) {
    if (sys.role_unit(r) < 0) continue;
    roles += std::string(roles.empty() ? "" : ", ") + std::string(hw::role_key(r)) + " " + sys.unit(sys.role_unit(r)).name;
  }
  out << "roles    " << roles << "\n";
  for (size_t t = 0; t < sys.unit_count(); ++t) {
    const hw::UnitInfo& u = sys.unit(static_cast<hw::UnitType>(t));
    out << "\n" << u.name << "  [" << u.family->name << ", " << sys.model(static_cast<hw::UnitType>(t)).unit_count()
        << (u.compute ? " unit(s)" : "") << "]\n";
    if (u.family->summary) {
      for (const std::string& line : u.family->summary(u.spec)) out << "    " << line << "\n";
    }
    // Every key of the family's table: its value (inheritance resolved) or its default, and
    // what it means.
    if (u.family->params && !u.family->params->params.empty()) {
      out << "  parameters\n" << table_text(u.spec, hw::unit_params(*u.family->params), 4);
    }
  }
  if (sys.config().has("links")) out << "\nlinks\n" << sys.config().at("links").to_yaml(2);
}

// "configs/systems/ (default), configs/systems/lightcode/ (lightcode)": where each
// registered profile keeps the systems made for it.
std::string systems_folders() {
  std::string s;
  for (const auto& p : hw::default_registry().profiles()) {
    const std::string sub(p->systems_folder());
    s += (s.empty() ? "" : ", ") + std::string("configs/systems/") + (sub.empty() ? "" : sub + "/") + " (" +
         std::string(p->name()) + ")";
  }
  return s;
}

}  // namespace

void register_hw(CLI::App& app, CommandAction& action) {
  CLI::App* hw = app.add_subcommand("hw", "List hardware families, or show a system's resolved spec");
  hw->require_subcommand(1);
  CLI::App* list = hw->add_subcommand("list", "Every registered hardware family and its algorithms");
  list->callback([&action] {
    action = [] {
      print_registries(std::cout, "families");
      return 0;
    };
  });
  auto path = std::make_shared<std::string>();
  auto profile = std::make_shared<std::string>("default");
  CLI::App* show = hw->add_subcommand(
      "show",
      "A system's units with derived peaks (FLOP/s per dtype, bandwidths, photonic MAC/s)\n"
      "and the spec each resolves to after `from:` inheritance, e.g. (from the repository root):\n"
      "  lightcode hw show configs/systems/h100_sxm_phu.yaml\n"
      "  lightcode hw show configs/systems/lightcode/gpu_phu.yaml --profile lightcode\n"
      "Each profile's systems: " + systems_folders());
  show->add_option("system", *path, "System YAML (configs/systems/*.yaml)")->required();
  show->add_option("--profile", *profile, "A registered profile (lightcode list profiles)")->capture_default_str();
  show->callback([&action, path, profile] {
    action = [path, profile] {
      // The loader says what a file is when it is not a system for this profile (a hardware
      // file, a system made for another profile) and what to give instead.
      const hw::System sys = hw::System::load(*path, hw::profile_named(*profile));
      print_system(std::cout, sys);
      return 0;
    };
  });
}

}  // namespace lightcode::app
