#include "sim/sweep/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/stages/stage.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;

// An axis: its name and its values, each a node (a range's values are scalars standing for the
// range, so that reading one reads the range).
struct Axis {
  std::string name;
  std::vector<ConfigNode> values;
  bool tree = false;  // a scenario key (put into the point's tree), else a path into the system
};

std::string number_text(double v) {
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", v);
  }
  return buf;
}

// The text a value is reported by in the point's parameters: a scalar's text, else one line of
// flow YAML.
std::string value_text(const ConfigNode& v) { return v.is_scalar() ? v.as_string() : v.to_flow(); }

// Values of a range {start, stop, step | factor}, counted before any is made: a range of 1e9
// values, or one starting at 1e300 (where `v += step` would never advance), is an error.
std::vector<ConfigNode> range_values(const ConfigNode& values, ConfigUsage& usage) {
  const Params range(values, sweep_range_table(), usage);
  const double start = range.real("start");
  const double stop = range.real("stop");
  const std::optional<double> step = range.quantity_if("step");
  const std::optional<double> factor = range.quantity_if("factor");
  if (step.has_value() == factor.has_value()) values.fail("a range takes either `step` or `factor`");
  if (stop < start) values.fail("range stop " + number_text(stop) + " is below start " + number_text(start) + ": the axis is empty");
  const double limit = static_cast<double>(limits::kAxisValues.value);
  double count = 0.0;
  std::function<double(double)> value_at;
  if (step) {
    count = std::floor((stop - start) / *step + 1e-9) + 1.0;
    value_at = [start, step = *step](double i) { return start + i * step; };
  } else {
    if (!(*factor > 1.0) || !(start > 0.0)) values.fail("a geometric range needs start > 0 and factor > 1");
    count = std::floor(std::log(stop / start) / std::log(*factor) + 1e-9) + 1.0;
    value_at = [start, factor = *factor](double i) { return start * std::pow(factor, i); };
  }
  if (!(count <= limit)) {
    values.fail("the range has " + number_text(count) + " values, above the limit of " +
                std::to_string(limits::kAxisValues.value) + " (" + std::string(limits::kAxisValues.name) + ")");
  }
  std::vector<ConfigNode> out;
  for (double i = 0; i < count; ++i) out.push_back(values.scalar_copy(number_text(value_at(i))));
  return out;
}

// Whether axis `name` addresses the scenario's tree: its first key is a scenario key.
bool is_tree_path(const std::string& name) {
  return scenario_table().find(name.substr(0, name.find('.'))) != nullptr;
}

Axis read_axis(const std::string& name, const ConfigNode& values, ConfigUsage& usage) {
  Axis axis;
  axis.name = name;
  axis.tree = is_tree_path(name);
  if (name == "sweep" || name.rfind("sweep.", 0) == 0) values.fail("'sweep' cannot be a sweep axis");
  if (values.is_list()) {
    if (values.size() == 0) values.fail("sweep axis '" + name + "' is empty");
    for (size_t i = 0; i < values.size(); ++i) axis.values.push_back(values[i]);
    return axis;
  }
  if (values.is_map()) {
    axis.values = range_values(values, usage);
    return axis;
  }
  values.fail("a sweep axis is a list of values or a range {start, stop, step | factor}");
}

// Config-path axes ("phu.cores") address a unit of the point's system: units.<u> or memory.<u>.
std::string config_path(const ConfigNode& system, const std::string& axis, const ConfigNode& where) {
  const size_t dot = axis.find('.');
  const std::string unit = axis.substr(0, dot);
  std::string section;
  for (const char* s : {"units", "memory"}) {
    if (system.has(s) && system.at(s).has(unit)) section = s;
  }
  if (section.empty() || dot == std::string::npos) {
    std::string keys, units;
    for (const auto& k : scenario_table().keys()) keys += (keys.empty() ? "" : ", ") + k;
    for (const char* s : {"units", "memory"}) {
      if (!system.has(s)) continue;
      for (const auto& u : system.at(s).keys()) units += (units.empty() ? "" : ", ") + u;
    }
    where.fail("unknown sweep axis '" + axis + "': not a scenario key (" + keys +
               ") nor <unit>.<key> of a unit of the system (" + units + ")");
  }
  // The key must exist in the unit's resolved spec: a typo is caught here, not per point.
  ConfigNode node = system.at(section).at(unit);
  std::string rest = axis.substr(dot + 1);
  while (!rest.empty()) {
    const size_t d = rest.find('.');
    const std::string key = rest.substr(0, d);
    if (!node.has(key)) {
      std::string keys;
      for (const auto& k : node.keys()) keys += (keys.empty() ? "" : ", ") + k;
      where.fail("unknown sweep axis '" + axis + "': unit '" + unit + "' has no key '" + key + "' (keys: " + keys + ")");
    }
    node = node.at(key);
    rest = d == std::string::npos ? "" : rest.substr(d + 1);
  }
  return section + "." + axis;
}

// Groups of axes; a group advances as one axis (a zip group has several).
std::vector<std::vector<Axis>> read_groups(const ConfigNode& sweep, ConfigUsage& usage) {
  if (!sweep.is_map()) sweep.fail("expected a mapping of axes");
  std::vector<std::vector<Axis>> groups;
  for (const std::string& key : sweep.keys()) {
    if (key != "zip") {
      groups.push_back({read_axis(key, sweep.at(key), usage)});
      continue;
    }
    const ConfigNode zip = sweep.at("zip");
    if (!zip.is_map() || zip.size() == 0) zip.fail("`zip` is a mapping of axes of equal length");
    std::vector<Axis> group;
    for (const std::string& z : zip.keys()) group.push_back(read_axis(z, zip.at(z), usage));
    for (const Axis& a : group) {
      if (a.values.size() != group[0].values.size()) {
        zip.at(a.name).fail("zip axis '" + a.name + "' has " + std::to_string(a.values.size()) + " values but '" +
                            group[0].name + "' has " + std::to_string(group[0].values.size()));
      }
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

// Reads a point's tree: the common keys, then its stage's.
void read_point(const Params& p, PointSpec& point) {
  if (!p.has("model")) p.node().fail("missing key 'model' (a built-in model name, or a TVM or ONNX graph file)");
  p.mark("model");
  point.model = rows::model_value(p.at("model"));
  point.stage = parse_stage(p.choice("stage"));
  // Registered names, each checked at its value (a default is registered by construction).
  point.objective = p.text("objective");
  if (p.has("objective")) rows::objective_value(p.at("objective"));
  point.profile = p.text("profile");
  if (p.has("profile")) rows::profile_value(p.at("profile"));
  if (const auto scheduler = p.text_if("scheduler")) point.scheduler = rows::scheduler_value(p.at("scheduler"));
  stage_info(point.stage).read(p, point);
}

// Which points read scenario key `key`: "stage: generate", "a built-in model", or "" when every
// stage reads it whatever the point.
std::string readers_of(const std::string& key) {
  std::string readers;
  size_t count = 0;
  for (const StageInfo& s : stages()) {
    if (!s.params->find(key) && !common_table().find(key)) continue;
    readers += (readers.empty() ? "" : " or ") + s.name;
    ++count;
  }
  if (count < stages().size()) return "stage: " + readers;
  const Param* p = scenario_table().find(key);
  return p ? p->when : "";
}

// Who would read key `path` had it been read: the reason of an unread-key error.
std::string unread_reason(const std::string& path, const std::vector<std::vector<Axis>>& groups,
                          const std::vector<bool>& stage_seen) {
  for (const auto& group : groups) {
    for (const Axis& a : group) {
      if (a.name == path) return "this scenario (every point takes '" + path + "' from the sweep axis)";
    }
  }
  if (path.find('.') != std::string::npos) return "this scenario (the policy chosen beside it has no such key)";
  std::string readers;
  bool some_point_reads = false;
  for (const StageInfo& s : stages()) {
    if (!s.params->find(path)) continue;
    readers += (readers.empty() ? "" : " or ") + s.name;
    some_point_reads = some_point_reads || stage_seen[static_cast<size_t>(s.id)];
  }
  if (!readers.empty() && !some_point_reads) return "this scenario (no point has stage: " + readers + ")";
  const Param* p = scenario_table().find(path);
  if (p && !p->when.empty()) return "this scenario (no point has " + p->when + ")";
  return "this scenario";
}

// A value no point read is an error at the value: an axis value first (a new_tokens value
// zipped with prefill points), then the file's keys.
void check_values_read(const ConfigNode& root, const std::vector<std::vector<Axis>>& groups, const ConfigUsage& usage,
                       const std::vector<bool>& stage_seen) {
  for (const auto& group : groups) {
    for (const Axis& a : group) {
      if (!a.tree) continue;
      for (const ConfigNode& v : a.values) {
        if (usage.was_read(v)) continue;
        const std::string readers = readers_of(a.name.substr(0, a.name.find('.')));
        v.fail("sweep axis '" + a.name + "'" + (v.is_scalar() ? ": value " + v.as_string() : "") +
               " is set but not read by any point of this scenario" +
               (readers.empty() ? "" : " (only a point with " + readers + " reads it)"));
      }
    }
  }
  check_all_read(root, scenario_table(), usage,
                 [&](const std::string& path) { return unread_reason(path, groups, stage_seen); });
}

// Whether values of `p` are single values checked by check_value (not tables or lists).
bool scalar_param(const Param& p) {
  switch (p.kind) {
    case ParamKind::quantity:
    case ParamKind::count:
    case ParamKind::integer:
    case ParamKind::real:
    case ParamKind::fraction:
    case ParamKind::boolean:
    case ParamKind::choice:
      return true;
    default:
      return false;
  }
}

// Every value a scenario key of a single-value type is given (in the file, by --set or by an
// axis) is checked against its row before anything is read: a bad value is reported as such,
// not as unread when no point happens to read it.
void check_values(const ConfigNode& root, const std::vector<std::vector<Axis>>& groups) {
  for (const std::string& key : root.keys()) {
    const Param* p = scenario_table().find(key);
    if (p && scalar_param(*p) && root.at(key).is_scalar()) check_value(*p, root.at(key));
  }
  for (const auto& group : groups) {
    for (const Axis& a : group) {
      const Param* p = scenario_table().find(a.name);
      if (!p || !scalar_param(*p)) continue;
      for (const ConfigNode& v : a.values) check_value(*p, v);
    }
  }
}

// "key=value" of a `--set`, split at the first '='.
std::pair<std::string, std::string> split_set(const std::string& set) {
  const size_t eq = set.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw Error("--set '" + excerpt(set) + "': expected key=value (e.g. objective=energy, batching.max_batch=16)");
  }
  return {set.substr(0, eq), set.substr(eq + 1)};
}

// A crossover study has its own command: say so rather than report its keys unknown.
void refuse_crossover(const ConfigNode& root, const std::string& path) {
  if (root.is_map() && root.has("systems") && root.has("lengths")) {
    root.fail("this is a crossover study (it lists `systems` and `lengths`): run it with `lightcode crossover " +
              path + "`");
  }
}

}  // namespace

const ParamTable& scenario_table() {
  static const ParamTable table = [] {
    ParamTable t = common_table();
    t.name = "scenario";
    t.doc =
        "What to simulate and where to write it (`scenarios/*.yaml`, run by `lightcode run` and `lightcode "
        "sweep`): the keys every scenario has, then each registered stage's ([stage.graph](#stage.graph), "
        "[stage.generate](#stage.generate), [stage.serve](#stage.serve)). Paths are relative to the file "
        "that names them. Any key may be a sweep axis (a dotted path into a mapping too); a value no point "
        "reads is an error.";
    for (const StageInfo& s : stages()) {
      for (const Param& p : s.params->params) {
        if (!t.find(p.key)) t.params.push_back(p);
      }
    }
    return t;
  }();
  return table;
}

const ParamTable& sweep_range_table() {
  static const ParamTable table{
      "scenario.range",
      "A sweep axis as a range of numbers, both ends included: `{start: 128, stop: 1024, step: "
      "128}` or, geometric, `{start: 1, stop: 64, factor: 2}`.",
      {
          Param::real("start").required().doc("the first value (> 0 for a geometric range)"),
          Param::real("stop").required().doc("the last value at most, >= start"),
          Param::real("step").positive().doc("arithmetic: the difference of successive values"),
          Param::real("factor").doc("geometric, > 1: the ratio of successive values"),
      }};
  return table;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets) {
  std::string dir = fs::path(path).parent_path().string();
  return parse_scenario(read_input_file(path, "scenario file", limits::kConfigFileBytes), path,
                        dir.empty() ? "." : dir, sets);
}

Scenario parse_scenario(std::string_view text, const std::string& path, const std::string& dir,
                        const std::vector<std::string>& sets) {
  Scenario s;
  s.file = path;
  s.text = std::string(text);
  s.sets = sets;
  ConfigNode root = ConfigNode::parse(s.text, path, dir);
  refuse_crossover(root, path);
  if (!root.is_map()) root.fail("a scenario is a mapping of keys (model, stage, system, ...)");
  std::vector<std::string> set_keys;
  for (const std::string& set : sets) {
    const auto [key, value] = split_set(set);
    if (std::find(set_keys.begin(), set_keys.end(), key) != set_keys.end()) {
      throw Error("--set " + key + " is given twice (a named flag such as --objective is a --set too)");
    }
    set_keys.push_back(key);
    root = root.with_node(key, ConfigNode::parse_override(value, "--set " + key));
  }
  ConfigUsage usage;
  const Params params(root, scenario_table(), usage);
  s.name = params.text_if("name").value_or(fs::path(path).stem().string());
  if (s.name.empty() || static_cast<int64_t>(s.name.size()) > limits::kNameBytes.value) {
    (root.has("name") ? root.at("name") : root).fail("a scenario name is 1 to " + std::to_string(limits::kNameBytes.value) + " bytes");
  }
  if (const auto output = params.path_if("output")) s.output = *output;

  std::vector<std::vector<Axis>> groups;
  if (params.has("sweep")) {
    params.mark("sweep");  // its axes are checked value by value, below
    groups = read_groups(params.at("sweep"), usage);
  }
  check_values(root, groups);
  // Count the points before making any (a product of long axes can be astronomically large).
  double count = 1.0;
  for (const auto& group : groups) count *= static_cast<double>(group[0].values.size());
  if (count > static_cast<double>(limits::kPoints.value)) {
    root.at("sweep").fail("the sweep has " + number_text(count) + " points, above the limit of " +
                          std::to_string(limits::kPoints.value) + " (" + std::string(limits::kPoints.name) + ")");
  }
  const ConfigNode base = root.without("sweep");
  std::map<std::string, ConfigNode> systems;  // config-path axes need each point's system
  std::vector<bool> stage_seen(stages().size() + 1, false);
  std::vector<size_t> index(groups.size(), 0);
  for (;;) {
    PointSpec p;
    ConfigNode tree = base;
    std::vector<std::pair<const Axis*, const ConfigNode*>> config_axes;
    for (size_t g = 0; g < groups.size(); ++g) {
      for (const Axis& a : groups[g]) {
        const ConfigNode& v = a.values[index[g]];
        if (a.tree) {
          tree = tree.with_node(a.name, v);
        } else {
          config_axes.emplace_back(&a, &v);
        }
        p.parameters.emplace_back(a.name, value_text(v));
      }
    }
    read_point(Params(tree, scenario_table(), usage), p);
    stage_seen[static_cast<size_t>(p.stage)] = true;
    if (!config_axes.empty()) {
      if (p.system.empty()) config_axes.front().second->fail("sweep axes over hardware need the point's `system`");
      auto it = systems.find(p.system);
      if (it == systems.end()) it = systems.emplace(p.system, ConfigNode::load_file(p.system, "system file")).first;
      for (const auto& [axis, value] : config_axes) {
        p.overrides.emplace_back(config_path(it->second, axis->name, *value), value->as_string());
      }
    }
    char id[16];
    std::snprintf(id, sizeof id, "p%04zu", s.points.size());
    p.id = id;
    s.points.push_back(std::move(p));
    size_t g = groups.size();
    while (g > 0 && ++index[g - 1] == groups[g - 1][0].values.size()) index[--g] = 0;
    if (g == 0) break;
  }
  check_values_read(root, groups, usage, stage_seen);
  return s;
}

}  // namespace lightcode::sweep
