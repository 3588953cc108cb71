#pragma once
// A registered serving policy that owns its parameters: a batching policy, a dispatch policy,
// an arrival process, a length distribution. Each entry is {name, description, its parameter
// table, parse}; a mapping chooses one by a selector key (`policy:`, `arrival:`,
// `distribution:`) and holds the chosen entry's keys beside the mapping's own:
//   batching: {policy: static, max_batch: 16, timeout: 50 ms}
// read_selected() reads such a mapping through the mapping's table joined with the entry's,
// so a key another entry owns is "set but not read" (ConfigUsage) unless a point choosing that
// entry reads it, a key no entry has is unknown, and the entry's parse gets its own keys through Params. Adding a policy with a new
// knob is one file (its class, table and parse) and one line in register_policies.cpp.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/core/params.hpp"

namespace lightcode::serve {

template <class Made>
struct PolicyEntry {
  std::string name;
  std::string description;
  const ParamTable* params = nullptr;  // its own keys, without the selector
  std::shared_ptr<const Made> (*parse)(const Params& p) = nullptr;
};

template <class Made>
using PolicyList = std::vector<PolicyEntry<Made>>;

// The table a mapping is read through once its selector chose the entry whose keys are
// `chosen`: `base`'s rows, then `chosen`'s, then those of `others` (the registry's other
// entries) that neither has. Another entry's key is so not unknown but unread here: a sweep
// over the policy may give it to the points that choose that entry. Made once per (base,
// chosen, others) (Params keeps a pointer to it).
const ParamTable& joined_table(const ParamTable& base, const ParamTable& chosen,
                               const std::vector<const ParamTable*>& others);

template <class Made>
struct Selected {
  const PolicyEntry<Made>* entry = nullptr;
  Params params;                      // the mapping through base + the entry's table
  std::shared_ptr<const Made> made;   // the entry's parse of it
};

// Reads `node` (a mapping; an absent one is given as an empty mapping) whose `selector` row of
// `base` names an entry of `entries` (the row's default when the key is absent). An unknown
// name is an error at the value listing the known ones.
template <class Made>
Selected<Made> read_selected(const ConfigNode& node, const ParamTable& base, std::string_view selector,
                             const PolicyList<Made>& entries, std::string_view what, ConfigUsage& usage) {
  if (!node.is_map()) node.fail("expected a mapping");
  const Param& row = *base.find(selector);
  const std::optional<ConfigNode> chosen = node.find(selector);
  if (!chosen && row.presence == Presence::required) node.fail("missing key '" + row.key + "' (" + row.help + ")");
  const std::string name = chosen ? chosen->as_string() : row.default_text;
  const PolicyEntry<Made>* entry = nullptr;
  try {
    entry = &named_in(entries, name, what);
  } catch (const Error& e) {
    if (node.has(selector)) node.at(selector).fail(e.what());
    node.fail(e.what());
  }
  std::vector<const ParamTable*> others;
  for (const PolicyEntry<Made>& e : entries) others.push_back(e.params);
  Params params(node, joined_table(base, *entry->params, others), usage);
  params.text(selector);  // recorded as read
  std::shared_ptr<const Made> made = entry->parse(params);
  return Selected<Made>{entry, std::move(params), std::move(made)};
}

}  // namespace lightcode::serve
