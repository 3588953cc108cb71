// `lightcode list [families|profiles|schedulers|objectives|fusion]`: every registered thing a
// scenario or a system file can name, with what it does.
#include <iomanip>
#include <iostream>
#include <memory>

#include "hw_models/registry.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/listing.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/fusion.hpp"
#include "sim/opt/objective.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::app {
namespace {

void line(std::ostream& out, int indent, std::string_view name, std::string_view description, int width = 14) {
  out << std::string(static_cast<size_t>(indent), ' ') << std::left << std::setw(width) << name << "  "
      << description << "\n";
}

}  // namespace

void print_registries(std::ostream& out, const std::string& what) {
  const bool all = what.empty();
  if (!all && what != "families" && what != "profiles" && what != "schedulers" && what != "objectives" &&
      what != "fusion") {
    throw Error("lightcode list: '" + what + "' is not one of families, profiles, schedulers, objectives, fusion");
  }
  if (all || what == "families") {
    if (all) out << "hardware families (`family:` in configs/hardware/*.yaml) and their algorithms\n";
    for (const auto& f : hw::default_registry().families()) {
      line(out, all ? 2 : 0, f.name, f.description, all ? 12 : 14);
      for (const auto& a : f.algorithms) line(out, all ? 6 : 4, a.name, a.description, 14);
    }
  }
  if (all || what == "profiles") {
    if (all) out << "profiles (`profile:`)\n";
    for (const auto& p : hw::default_registry().profiles()) line(out, all ? 2 : 0, p->name(), p->description(), 12);
  }
  if (all || what == "schedulers") {
    if (all) out << "scheduling policies (`scheduler:`; default: the profile's)\n";
    for (const auto& p : sched::default_policies().all()) line(out, all ? 2 : 0, p->name(), p->description(), 12);
  }
  if (all || what == "objectives") {
    if (all) out << "objectives (`objective:`)\n";
    for (const auto& o : opt::objectives()) {
      line(out, all ? 2 : 0, o.name, std::string(o.description) + " [" + std::string(o.unit) + "]", 12);
    }
  }
  if (all || what == "fusion") {
    if (all) out << "fusion rules (fused-kernel candidates; a unit's `fusion:` names those it runs)\n";
    for (const auto& r : ir::fusion_rules()) {
      line(out, all ? 2 : 0, r.name, std::string(r.description) + " [" + std::string(ir::kernel_class_name(r.cls)) + "]",
           16);
    }
  }
}

void register_list(CLI::App& app, CommandAction& action) {
  auto what = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "list",
      "Everything registered that a scenario or a system file can name: hardware families and\n"
      "their algorithms, profiles, scheduling policies, objectives, fusion rules.\n\n"
      "  lightcode list\n"
      "  lightcode list schedulers");
  cmd->add_option("what", *what, "Only one section: families, profiles, schedulers, objectives or fusion");
  cmd->callback([what, &action] {
    action = [what] {
      print_registries(std::cout, *what);
      return 0;
    };
  });
}

}  // namespace lightcode::app
