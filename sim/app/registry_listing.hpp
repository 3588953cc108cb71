#pragma once
// Every registry a scenario, a system or a hardware file can name, as one listing: hardware
// families (with their algorithms), profiles, scheduling policies, objectives, fusion rules,
// partition rules, stages, batching and dispatch policies, arrival processes, length
// distributions and built-in models. `lightcode list` prints it as text and docs/CONFIG.md
// (`lightcode reference`) as Markdown, with the parameter table of each entry that owns one.
#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace lightcode::app {

struct ListedEntry {
  std::string name;
  std::string description;
  const ParamTable* params = nullptr;  // the keys it owns (a policy's, a family's), if any
  std::vector<ListedEntry> children;   // a family's algorithms
};

struct ListedRegistry {
  std::string key;    // `lightcode list <key>`
  std::string title;  // what it is and where a file names it
  std::vector<ListedEntry> entries;
};

const std::vector<ListedRegistry>& registry_listing();
// The registries' keys, comma-separated, without building the listing (every command line's
// `--help` shows them; the listing reads every built-in model's config).
std::string registry_keys();

}  // namespace lightcode::app
