#include "sim/sweep/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>

#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "sim/opt/objective.hpp"
#include "sim/sched/policy.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/core/params.hpp"
#include "sim/serve/dispatch.hpp"
#include "sim/sweep/tables.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kPointKeys{
    "model",         "traced_length", "stage",   "logits",   "precision",    "sequence_length",
    "new_tokens",    "system",        "objective", "profile", "scheduler",   "fidelity",
    "pareto",        "placement_evaluations", "replicas", "batching", "requests", "trace",
    "arrival_rate",  "dispatch",      "dispatch_table", "dispatch_objective", "slo", "iteration_cost", "cost_grid_bits"};

// Keys whose value is a mapping or a list of mappings, read through a nested table.
bool is_nested_key(const std::string& k) {
  return k == "replicas" || k == "batching" || k == "requests" || k == "slo";
}

bool is_point_key(const std::string& k) {
  for (const auto& p : kPointKeys) {
    if (p == k) return true;
  }
  return false;
}

std::string resolve_path(const std::string& value, const std::string& dir) {
  const fs::path p(value);
  return p.is_absolute() ? value : (fs::path(dir) / p).lexically_normal().string();
}

// The file `value` names, resolved against `dir`; an error at the value when it does not exist.
std::string existing_file(const ConfigNode& value, const std::string& dir, const std::string& what) {
  const std::string path = resolve_path(value.as_string(), dir);
  std::error_code ec;
  if (!fs::exists(path, ec)) value.fail(what + " '" + path + "' does not exist");
  return path;
}

// The value's text, once `lookup` (a registry's lookup by name) accepts it; its error is
// placed at the value.
template <class Lookup>
std::string registered(const ConfigNode& value, const Lookup& lookup) {
  const std::string name = value.as_string();
  try {
    lookup(name);
  } catch (const Error& e) {
    value.fail(e.what());
  }
  return name;
}

// An axis: its name and its values, each with the node it came from (for errors).
struct Axis {
  std::string name;
  std::vector<std::string> values;
  std::vector<ConfigNode> nodes;  // the value's node (a range's values share the range's)
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

// Values of a range {start, stop, step | factor}, counted before any is made: a range of 1e9
// values, or one starting at 1e300 (where `v += step` would never advance), is an error.
std::vector<std::string> range_values(const ConfigNode& values, ConfigUsage& usage) {
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
  std::vector<std::string> out;
  for (double i = 0; i < count; ++i) out.push_back(number_text(value_at(i)));
  return out;
}

Axis read_axis(const std::string& name, const ConfigNode& values, ConfigUsage& usage) {
  Axis axis;
  axis.name = name;
  if (values.is_list()) {
    if (values.size() == 0) values.fail("sweep axis '" + name + "' is empty");
    for (size_t i = 0; i < values.size(); ++i) {
      axis.values.push_back(values[i].as_string());
      axis.nodes.push_back(values[i]);
    }
    return axis;
  }
  if (values.is_map()) {
    axis.values = range_values(values, usage);
    axis.nodes.assign(axis.values.size(), values);
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
    for (const auto& k : kPointKeys) keys += (keys.empty() ? "" : ", ") + k;
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

// A nested table's values through `table`; without `reads`, what `read` leaves unread is an
// error at once.
template <class Read>
void read_nested(const ConfigNode& value, const ParamTable& table, ConfigUsage* reads, Read&& read) {
  ConfigUsage local;
  ConfigUsage& usage = reads ? *reads : local;
  const Params params(value, table, usage);
  read(params);
  if (!reads) check_all_read(value, table, usage, "this scenario");
}

// The registered name `params` gives for `key`, or its error at the value.
template <class Registry>
std::string registered_name(const Params& params, std::string_view key, const Registry& items, std::string_view what) {
  const std::string name = params.text(key);
  try {
    named_in(items, name, what);
  } catch (const Error& e) {
    params.at(key).fail(e.what());
  }
  return name;
}

// A length distribution: the keys its distribution reads, each required there.
serve::LengthSpec read_length(const Params& p) {
  serve::LengthSpec l;
  l.distribution = registered_name(p, "distribution", serve::length_distributions(), "length distribution");
  const auto need = [&](std::string_view key) -> int64_t {
    const std::optional<int64_t> v = p.count_if(key);
    if (!v) p.node().fail("distribution " + l.distribution + " needs `" + std::string(key) + "`");
    return *v;
  };
  const auto need_real = [&](std::string_view key) -> double {
    if (!p.has(key)) p.node().fail("distribution " + l.distribution + " needs `" + std::string(key) + "`");
    return p.real(key);
  };
  if (l.distribution == "fixed") {
    l.value = need("value");
    return l;
  }
  l.min = need("min");
  l.max = need("max");
  if (l.max < l.min) p.at("max").fail("max " + std::to_string(l.max) + " is below min " + std::to_string(l.min));
  if (l.distribution == "lognormal") {
    l.median = need_real("median");
    l.sigma = need_real("sigma");
    if (l.sigma < 0.0) p.at("sigma").fail("sigma must be >= 0");
  }
  return l;
}

// The batching keys a mapping sets (the scenario's batching table, or a replica's own).
void read_batching_keys(const Params& p, std::optional<std::string>& policy, std::optional<int64_t>& max_batch,
                        std::optional<int64_t>& token_budget, std::optional<Time>& timeout) {
  if (p.has("policy") || p.table().find("policy")->presence == Presence::defaulted) {
    policy = registered_name(p, "policy", serve::batching_policies(), "batching policy");
  }
  if (const auto v = p.count_if("max_batch")) max_batch = *v;
  if (const auto v = p.count_if("token_budget")) token_budget = *v;
  if (const auto v = p.quantity_if("timeout")) timeout = Time::from_seconds(*v);
}

void set_serve_field(ServePoint& serve, const std::string& key, const ConfigNode& value, const std::string& dir,
                     ConfigUsage* reads) {
  if (key == "replicas") {
    if (!value.is_list() || value.size() == 0) value.fail("`replicas` is a list of at least one {system: <file>}");
    if (static_cast<int64_t>(value.size()) > limits::kReplicas.value) {
      value.fail(std::to_string(value.size()) + " replicas, above the limit of " +
                 std::to_string(limits::kReplicas.value) + " (" + std::string(limits::kReplicas.name) + ")");
    }
    serve.replicas.clear();
    for (size_t i = 0; i < value.size(); ++i) {
      read_nested(value[i], serve_replica_table(), reads, [&](const Params& p) {
        ServeReplica r;
        p.text("system");  // recorded as read
        r.system = existing_file(p.at("system"), dir, "system file");
        read_batching_keys(p, r.policy, r.max_batch, r.token_budget, r.timeout);
        serve.replicas.push_back(std::move(r));
      });
    }
  } else if (key == "batching") {
    read_nested(value, serve_batching_table(), reads, [&](const Params& p) {
      std::optional<std::string> policy;
      std::optional<int64_t> max_batch, token_budget;
      std::optional<Time> timeout;
      read_batching_keys(p, policy, max_batch, token_budget, timeout);
      serve.batching = serve::BatchingSpec{*policy, *max_batch, *timeout, *token_budget};
    });
  } else if (key == "requests") {
    read_nested(value, serve_requests_table(), reads, [&](const Params& p) {
      serve::GeneratorSpec& g = serve.generator;
      serve.generated = true;
      g.count = p.count("count");
      g.arrival = registered_name(p, "arrival", serve::arrival_processes(), "arrival process");
      if (g.arrival == "gamma") {
        if (!p.has("cv")) p.node().fail("arrival gamma needs `cv`, the gaps' coefficient of variation");
        g.cv = p.real("cv");
      }
      g.seed = static_cast<uint64_t>(p.integer("seed"));
      g.prompt = read_length(*p.table_if("prompt"));
      g.output = read_length(*p.table_if("output"));
    });
  } else if (key == "trace") {
    serve.trace = existing_file(value, dir, "trace file");
  } else if (key == "arrival_rate") {
    serve.arrival_rate_per_s = parse_quantity(value.as_string(), Dimension::request_rate);
  } else if (key == "dispatch") {
    serve.dispatch =
        registered(value, [](const std::string& n) { named_in(serve::dispatch_policies(), n, "dispatch policy"); });
  } else if (key == "dispatch_table") {
    // A table `lightcode crossover` writes may not exist yet: checked with the inputs before a
    // run (validate_point_inputs), not here.
    serve.dispatch_table = resolve_path(value.as_string(), dir);
  } else if (key == "dispatch_objective") {
    serve.dispatch_objective = registered(value, [](const std::string& n) { opt::objective_named(n); });
  } else if (key == "slo") {
    read_nested(value, serve_slo_table(), reads, [&](const Params& p) {
      if (const auto t = p.quantity_if("ttft")) serve.slo_ttft = Time::from_seconds(*t);
      if (const auto t = p.quantity_if("tpot")) serve.slo_tpot = Time::from_seconds(*t);
    });
  } else if (key == "iteration_cost") {
    serve.iteration_cost = value.as_string();
  } else if (key == "cost_grid_bits") {
    serve.cost_grid_bits = value.as_int();
    if (serve.cost_grid_bits > 24) value.fail("cost_grid_bits is 0 to 24");
  }
}

}  // namespace

serve::BatchingSpec ServePoint::batching_of(size_t replica) const {
  serve::BatchingSpec b = batching;
  const ServeReplica& r = replicas.at(replica);
  if (r.policy) b.policy = *r.policy;
  if (r.max_batch) b.max_batch = *r.max_batch;
  if (r.token_budget) b.token_budget = *r.token_budget;
  if (r.timeout) b.timeout = *r.timeout;
  return b;
}

void set_point_field(PointSpec& point, const std::string& key, const ConfigNode& value,
                     const std::string& scenario_dir, ConfigUsage* nested_reads) {
  if (!is_point_key(key)) value.fail("'" + key + "' is not a scenario field");
  if (is_nested_key(key)) {
    set_serve_field(point.serve, key, value, scenario_dir, nested_reads);
    return;
  }
  check_value(*scenario_table().find(key), value);  // type, bounds and choices: the table's
  if (key == "model") {
    const std::string m = value.as_string();
    point.model = frontend::is_graph_file(m) ? resolve_path(m, scenario_dir) : m;
    std::error_code ec;
    if (frontend::is_graph_file(m) && !fs::exists(point.model, ec)) value.fail("model file '" + point.model + "' does not exist");
  } else if (key == "traced_length") {
    point.traced_length = value.as_int();
  } else if (key == "stage") {
    point.stage = value.as_string();
  } else if (key == "logits") {
    point.logits = value.as_string();
  } else if (key == "precision") {
    point.precision = value.as_int();
  } else if (key == "sequence_length") {
    point.sequence_length = value.as_int();
  } else if (key == "new_tokens") {
    point.new_tokens = value.as_int();
  } else if (key == "system") {
    point.system = existing_file(value, scenario_dir, "system file");
  } else if (key == "objective") {
    point.objective = registered(value, [](const std::string& n) { opt::objective_named(n); });
  } else if (key == "profile") {
    point.profile = registered(value, [](const std::string& n) { hw::profile_named(n); });
  } else if (key == "scheduler") {
    point.scheduler = registered(value, [](const std::string& n) { sched::default_policies().at(n); });
  } else if (key == "fidelity") {
    point.fidelity = value.as_string();
  } else if (key == "pareto") {
    point.pareto = value.as_bool();
  } else if (key == "placement_evaluations") {
    point.placement_evaluations = value.as_int();
  } else {
    set_serve_field(point.serve, key, value, scenario_dir, nested_reads);
  }
}

ConfigNode system_config(const PointSpec& point) {
  ConfigNode c = ConfigNode::load_file(point.system, "system file");
  for (const auto& [path, value] : point.overrides) c = c.with_value(path, value, "sweep axis " + path);
  return c;
}

Scenario load_scenario(const std::string& path) {
  std::string dir = fs::path(path).parent_path().string();
  return parse_scenario(read_input_file(path, "scenario file", limits::kConfigFileBytes), path,
                        dir.empty() ? "." : dir);
}

namespace {

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

// A value no point read is an error at the value: an axis value first (a new_tokens value
// zipped with prefill points), then the file's keys through check_all_read.
void check_values_read(const ConfigNode& root, const std::vector<std::vector<Axis>>& groups, const ConfigUsage& usage) {
  for (const auto& group : groups) {
    for (const Axis& a : group) {
      if (!is_point_key(a.name)) continue;
      for (size_t i = 0; i < a.nodes.size(); ++i) {
        if (usage.was_read(a.nodes[i])) continue;
        a.nodes[i].fail("sweep axis '" + a.name + "'" + (a.nodes[i].is_scalar() ? ": value " + a.values[i] : "") +
                        " is set but not read by any point of this scenario (only a point with " +
                        read_only_with(a.name) + " reads it)");
      }
    }
  }
  // check_all_read names one reader for all keys: say why for the key it reports, the first
  // unread one in file order. A file value is read when any point reads its key, so unread
  // means no point can.
  std::string reader = "this scenario";
  for (const std::string& key : root.keys()) {
    if (is_point_key(key) && !usage.was_read(root.at(key))) {
      bool swept = false;
      for (const auto& group : groups) {
        for (const Axis& a : group) swept = swept || a.name == key;
      }
      reader = swept ? "this scenario (every point takes '" + key + "' from the sweep axis)"
                     : "this scenario (no point has " + read_only_with(key) + ")";
      break;
    }
  }
  check_all_read(root, scenario_table(), usage, reader);
}

// Checks what a serve point needs: replicas, and requests from a trace or generated at a rate;
// the dispatch table when it dispatches by prompt length. Sets its fidelity: a serve point times
// its iterations analytically.
void finish_serve_point(PointSpec& p, const ConfigNode& root) {
  const ServePoint& s = p.serve;
  if (frontend::is_graph_file(p.model)) {
    root.fail("stage serve builds each iteration's batch from a built-in model, not a TVM graph file ('" + p.model + "')");
  }
  if (s.replicas.empty()) root.fail("stage serve needs `replicas` (a list of {system: <file>})");
  if (s.trace.empty() == !s.generated) {
    root.fail("stage serve takes its requests from `requests` (generated, with `arrival_rate`) or from a `trace` "
              "file: give one of them");
  }
  if (s.generated && !(s.arrival_rate_per_s > 0.0)) {
    root.fail("point " + p.id + ": stage serve with generated requests needs `arrival_rate` (e.g. \"20 req/s\")");
  }
  if (s.dispatch == "prompt_length" && s.dispatch_table.empty()) {
    root.fail("point " + p.id + ": dispatch prompt_length needs `dispatch_table` (a `lightcode crossover` table)");
  }
  p.fidelity = "analytical";
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& path, const std::string& dir) {
  Scenario s;
  s.file = path;
  s.text = std::string(text);
  const ConfigNode root = ConfigNode::parse(s.text, path, dir);
  ConfigUsage usage;
  const Params params(root, scenario_table(), usage);
  s.name = params.text_if("name").value_or(fs::path(path).stem().string());
  if (s.name.empty() || static_cast<int64_t>(s.name.size()) > limits::kNameBytes.value) {
    (root.has("name") ? root.at("name") : root).fail("a scenario name is 1 to " + std::to_string(limits::kNameBytes.value) + " bytes");
  }
  if (const auto output = params.text_if("output")) s.output = resolve_path(*output, dir);

  // The base point: the file's values, the table's defaults for the rest. Whether a value
  // counts as read is decided below, by the points that read it.
  PointSpec base;
  std::vector<std::pair<std::string, ConfigNode>> file_values;
  for (const std::string& key : kPointKeys) {
    if (const auto value = root.find(key)) {
      set_point_field(base, key, *value, dir, &usage);
      file_values.emplace_back(key, *value);
    } else if (const Param& p = *scenario_table().find(key); p.presence == Presence::defaulted) {
      set_point_field(base, key, ConfigNode::parse(p.default_text, "the default of scenario key " + key), dir);
    }
  }
  std::vector<std::vector<Axis>> groups;
  if (params.has("sweep")) {
    params.mark("sweep");  // its axes are checked value by value, below
    groups = read_groups(params.at("sweep"), usage);
  }
  // Count the points before making any (a product of long axes can be astronomically large).
  double count = 1.0;
  for (const auto& group : groups) count *= static_cast<double>(group[0].values.size());
  if (count > static_cast<double>(limits::kPoints.value)) {
    root.at("sweep").fail("the sweep has " + number_text(count) + " points, above the limit of " +
                          std::to_string(limits::kPoints.value) + " (" + std::string(limits::kPoints.name) + ")");
  }
  // Config-path axes need each point's system; check them against the base system once.
  std::map<std::string, ConfigNode> systems;
  std::vector<size_t> index(groups.size(), 0);
  for (;;) {
    PointSpec p = base;
    struct ConfigAxis {
      std::string name, value;
      const ConfigNode* where;
    };
    std::vector<ConfigAxis> config_axes;
    for (size_t g = 0; g < groups.size(); ++g) {
      for (const Axis& a : groups[g]) {
        const std::string& v = a.values[index[g]];
        const ConfigNode& where = a.nodes[index[g]];
        if (is_point_key(a.name)) {
          if (where.is_scalar()) {
            set_point_field(p, a.name, where, dir);
          } else {  // a range value: parse it as a scalar in place
            set_point_field(p, a.name, ConfigNode::parse(v, where.file(), dir), dir);
          }
        } else {
          config_axes.push_back(ConfigAxis{a.name, v, &where});
        }
        p.parameters.emplace_back(a.name, v);
      }
    }
    if (!config_axes.empty()) {
      if (p.system.empty()) root.fail("sweep axes over hardware need a `system`");
      auto it = systems.find(p.system);
      if (it == systems.end()) it = systems.emplace(p.system, ConfigNode::load_file(p.system, "system file")).first;
      for (const ConfigAxis& c : config_axes) p.overrides.emplace_back(config_path(it->second, c.name, *c.where), c.value);
    }
    // The point's values of the keys it reads are read. A file value that an axis replaces
    // in every point is read by none: it is reported, as a figure nothing uses would mislead.
    std::vector<std::string> swept;
    for (size_t g = 0; g < groups.size(); ++g) {
      for (const Axis& a : groups[g]) {
        if (!is_point_key(a.name)) continue;
        swept.push_back(a.name);
        if (scenario_key_read(p, a.name)) usage.mark(a.nodes[index[g]]);
      }
    }
    for (const auto& [key, value] : file_values) {
      const bool replaced = std::find(swept.begin(), swept.end(), key) != swept.end();
      if (!replaced && scenario_key_read(p, key)) usage.mark(value);
    }
    char id[16];
    std::snprintf(id, sizeof id, "p%04zu", s.points.size());
    p.id = id;
    s.points.push_back(std::move(p));
    size_t g = groups.size();
    while (g > 0 && ++index[g - 1] == groups[g - 1][0].values.size()) index[--g] = 0;
    if (g == 0) break;
  }
  for (PointSpec& p : s.points) {
    if (p.model.empty()) root.fail("missing key 'model' (a built-in model name or a TVM graph file)");
    if (p.stage == "serve") {
      finish_serve_point(p, root);
      continue;
    }
    if (p.system.empty()) root.fail("missing key 'system' (a configs/systems/*.yaml file)");
    if (p.sequence_length == 0) root.fail("missing key 'sequence_length'");
    if (p.stage == "generate" && p.new_tokens == 0) root.fail("stage generate needs `new_tokens`");
    if (p.stage == "generate" && p.sequence_length + p.new_tokens > limits::kSequenceLength.value) {
      root.fail("point " + p.id + ": sequence_length + new_tokens = " + std::to_string(p.sequence_length + p.new_tokens) +
                " is above the limit of " + std::to_string(limits::kSequenceLength.value) + " (" +
                std::string(limits::kSequenceLength.name) + ")");
    }
  }
  check_values_read(root, groups, usage);
  return s;
}

}  // namespace lightcode::sweep
