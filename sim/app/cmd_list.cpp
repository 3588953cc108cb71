// `lightcode list [<registry>]`: every registered thing a scenario, a system or a hardware file
// can name, with what it does and the keys it owns (sim/app/registry_listing.hpp).
#include <iomanip>
#include <iostream>
#include <memory>

#include "sim/app/commands.hpp"
#include "sim/app/listing.hpp"
#include "sim/app/registry_listing.hpp"
#include "sim/core/error.hpp"

namespace lightcode::app {
namespace {

void line(std::ostream& out, int indent, std::string_view name, std::string_view description, int width) {
  out << std::string(static_cast<size_t>(indent), ' ') << std::left << std::setw(width) << name << "  "
      << description << "\n";
}

}  // namespace

void print_registries(std::ostream& out, const std::string& what) {
  const bool all = what.empty();
  bool found = all;
  for (const ListedRegistry& r : registry_listing()) {
    if (!all && r.key != what) continue;
    found = true;
    if (all) out << r.title << "\n";
    const int indent = all ? 2 : 0;
    size_t width = 10;
    for (const ListedEntry& e : r.entries) width = std::max(width, e.name.size());
    for (const ListedEntry& e : r.entries) {
      line(out, indent, e.name, e.description, static_cast<int>(width));
      for (const ListedEntry& c : e.children) line(out, indent + 4, c.name, c.description, 14);
      // A policy's own keys (a family's are in `hw show` and docs/CONFIG.md: too many here).
      if (!e.params || !e.children.empty()) continue;
      for (const Param& p : e.params->params) {
        line(out, indent + 4, p.key, p.type_text() + ", default " + p.default_label() + ": " + p.help, 14);
      }
    }
  }
  if (!found) throw Error("lightcode list: '" + what + "' is not one of " + registry_keys());
}

void register_list(CLI::App& app, CommandAction& action) {
  auto what = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "list",
      "Everything registered that a scenario, a system or a hardware file can name: hardware\n"
      "families and their algorithms, profiles, scheduling policies, objectives, fusion and\n"
      "partition rules, stages, batching and dispatch policies, arrival processes, length\n"
      "distributions and built-in models, with the keys each policy and stage owns.\n\n"
      "  lightcode list\n"
      "  lightcode list batching");
  cmd->add_option("what", *what, "Only one registry: " + registry_keys());
  cmd->callback([what, &action] {
    action = [what] {
      print_registries(std::cout, *what);
      return 0;
    };
  });
}

}  // namespace lightcode::app
