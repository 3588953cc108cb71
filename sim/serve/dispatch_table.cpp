#include "sim/serve/dispatch_table.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/opt/objective.hpp"

namespace lightcode::serve {
namespace {

std::string unit_of(const std::string& objective) { return std::string(opt::objective_named(objective).unit); }

int64_t length_at(const ConfigNode& n) {
  const int64_t v = n.as_int();
  if (v < 1 || v > limits::kSequenceLength.value) {
    n.fail("a length between 1 and " + std::to_string(limits::kSequenceLength.value) + ", got " + std::to_string(v));
  }
  return v;
}

// A metric: a finite number; `null` is accepted only where `nullable` (curve gaps).
double metric_at(const ConfigNode& n, bool nullable) {
  if (nullable && (n.is_null() || (n.is_scalar() && (n.as_string() == "null" || n.as_string() == "~")))) return NAN;
  return n.as_double();  // rejects inf and nan
}

std::vector<std::string> read_systems(const ConfigNode& root) {
  const ConfigNode list = root.at("systems");
  if (!list.is_list() || list.size() < 1) list.fail("a list of {name, file}");
  std::vector<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const ConfigNode s = list[i];
    if (!s.is_map()) s.fail("expected {name: ..., file: ...}");
    s.allow_only({"name", "file"});
    const std::string name = s.string("name");
    if (std::find(names.begin(), names.end(), name) != names.end()) s.at("name").fail("system '" + name + "' is listed twice");
    s.string("file");
    names.push_back(name);
  }
  return names;
}

void read_rules(const ConfigNode& node, const LoadedDispatchTable& t, DispatchObjective& o) {
  node.allow_only({"unit", "evaluations", "lengths_probed", "ranges"});
  if (node.has("unit") && node.string("unit") != o.unit) node.at("unit").fail("expected '" + o.unit + "'");
  if (node.has("evaluations")) node.non_negative_int("evaluations");
  if (node.has("lengths_probed")) node.non_negative_int("lengths_probed");
  const ConfigNode ranges = node.at("ranges");
  if (!ranges.is_list() || ranges.size() == 0) ranges.fail("a non-empty list of {from, to, system, ...}");
  int64_t expect = t.start;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ConfigNode r = ranges[i];
    if (!r.is_map()) r.fail("expected {from, to, system, file, metric_from, metric_to}");
    r.allow_only({"from", "to", "system", "file", "metric_from", "metric_to"});
    DispatchRule rule;
    rule.from = length_at(r.at("from"));
    rule.to = length_at(r.at("to"));
    if (rule.from != expect) r.at("from").fail("ranges must be contiguous: expected from " + std::to_string(expect));
    if (rule.to < rule.from) r.at("to").fail("below `from` " + std::to_string(rule.from));
    rule.system = r.string("system");
    if (std::find(t.systems.begin(), t.systems.end(), rule.system) == t.systems.end()) {
      r.at("system").fail("system '" + rule.system + "' is not listed under `systems`");
    }
    if (r.has("file")) rule.file = r.string("file");
    if (r.has("metric_from")) rule.metric_from = metric_at(r.at("metric_from"), false);
    if (r.has("metric_to")) rule.metric_to = metric_at(r.at("metric_to"), false);
    expect = rule.to + 1;
    o.rules.push_back(std::move(rule));
  }
  if (expect != t.stop + 1) ranges.fail("the ranges end at " + std::to_string(expect - 1) + ", not at `lengths.stop` " + std::to_string(t.stop));
}

void read_curves(const ConfigNode& node, const LoadedDispatchTable& t, DispatchObjective& o) {
  node.allow_only({"unit", "lengths", "systems"});
  if (node.has("unit") && node.string("unit") != o.unit) node.at("unit").fail("expected '" + o.unit + "'");
  const ConfigNode lengths = node.at("lengths");
  if (!lengths.is_list()) lengths.fail("a list of lengths");
  for (size_t i = 0; i < lengths.size(); ++i) {
    const int64_t l = length_at(lengths[i]);
    if (!o.curve_lengths.empty() && l <= o.curve_lengths.back()) lengths[i].fail("lengths must increase");
    o.curve_lengths.push_back(l);
  }
  const ConfigNode systems = node.at("systems");
  if (!systems.is_map()) systems.fail("a mapping of system name -> metrics");
  systems.allow_only(t.systems);
  o.curve_metrics.assign(t.systems.size(), {});
  for (size_t k = 0; k < t.systems.size(); ++k) {
    const ConfigNode values = systems.at(t.systems[k]);
    if (!values.is_list() || values.size() != o.curve_lengths.size()) {
      values.fail("expected " + std::to_string(o.curve_lengths.size()) + " metrics, one per length");
    }
    for (size_t i = 0; i < values.size(); ++i) o.curve_metrics[k].push_back(metric_at(values[i], true));
  }
}

}  // namespace

LoadedDispatchTable load_dispatch_table(const std::string& path) {
  return parse_dispatch_table(read_input_file(path, "dispatch table", limits::kConfigFileBytes), path);
}

LoadedDispatchTable parse_dispatch_table(std::string_view text, const std::string& path) {
  const ConfigNode root = ConfigNode::parse_data(text, path);
  if (!root.is_map()) root.fail("expected a dispatch table (a mapping), as `lightcode crossover` writes");
  root.allow_only({"name", "scenario", "model", "stage", "profile", "lengths", "systems", "dispatch", "curves",
                   "thresholds"});
  LoadedDispatchTable t;
  t.name = root.string("name");
  if (root.has("scenario")) root.string("scenario");
  t.model = root.string("model");
  t.stage = root.string("stage");
  t.profile = root.string("profile");
  const ConfigNode lengths = root.at("lengths");
  if (!lengths.is_map()) lengths.fail("expected {start, stop}");
  lengths.allow_only({"start", "stop"});
  t.start = length_at(lengths.at("start"));
  t.stop = length_at(lengths.at("stop"));
  if (t.stop < t.start) lengths.fail("stop is below start");
  t.systems = read_systems(root);
  const ConfigNode dispatch = root.at("dispatch");
  if (!dispatch.is_map() || dispatch.size() == 0) dispatch.fail("a mapping of objective -> {ranges: ...}");
  dispatch.allow_only(opt::objective_names());
  for (const std::string& objective : dispatch.keys()) {
    DispatchObjective o;
    o.objective = objective;
    o.unit = unit_of(objective);
    read_rules(dispatch.at(objective), t, o);
    t.objectives.push_back(std::move(o));
  }
  if (root.has("curves")) {
    const ConfigNode curves = root.at("curves");
    if (!curves.is_map()) curves.fail("a mapping of objective -> {unit, lengths, systems}");
    for (const std::string& objective : curves.keys()) {
      auto it = std::find_if(t.objectives.begin(), t.objectives.end(),
                             [&](const DispatchObjective& o) { return o.objective == objective; });
      if (it == t.objectives.end()) curves.at(objective).fail("objective '" + objective + "' has no dispatch table");
      read_curves(curves.at(objective), t, *it);
    }
  }
  if (root.has("thresholds") && !root.at("thresholds").is_map()) root.at("thresholds").fail("expected a mapping");
  return t;
}

const DispatchRule& LoadedDispatchTable::route(const std::string& objective, int64_t length) const {
  for (const DispatchObjective& o : objectives) {
    if (o.objective != objective) continue;
    if (length < start || length > stop) {
      throw Error("dispatch table '" + name + "': length " + std::to_string(length) + " is outside its range " +
                  std::to_string(start) + ".." + std::to_string(stop));
    }
    const auto it = std::lower_bound(o.rules.begin(), o.rules.end(), length,
                                     [](const DispatchRule& r, int64_t l) { return r.to < l; });
    return *it;
  }
  throw Error("dispatch table '" + name + "' has no '" + objective + "' objective");
}

}  // namespace lightcode::serve
