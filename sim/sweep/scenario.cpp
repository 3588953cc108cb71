#include "sim/sweep/scenario.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/load_model.hpp"
#include "sim/core/error.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kPointKeys{"model", "traced_length", "stage", "sequence_length",
                                          "system", "objective", "profile", "fidelity"};

std::string resolve_path(const std::string& value, const std::string& dir) {
  const fs::path p(value);
  return p.is_absolute() ? value : (fs::path(dir) / p).lexically_normal().string();
}

void expect_one_of(const ConfigNode& node, const std::string& value,
                   std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  node.fail("'" + value + "' is not one of: " + list);
}

}  // namespace

void set_point_field(PointSpec& point, const std::string& key, const ConfigNode& value,
                     const std::string& scenario_dir) {
  if (key == "model") {
    const std::string m = value.as_string();
    point.model = frontend::is_graph_file(m) ? resolve_path(m, scenario_dir) : m;
    if (frontend::is_graph_file(m) && !fs::exists(point.model)) value.fail("model file '" + point.model + "' does not exist");
  } else if (key == "traced_length") {
    point.traced_length = value.as_int();
    if (*point.traced_length < 1) value.fail("must be a positive integer");
  } else if (key == "stage") {
    point.stage = value.as_string();
    expect_one_of(value, point.stage, {"prefill", "decode"});
  } else if (key == "sequence_length") {
    point.sequence_length = value.as_int();
    if (point.sequence_length < 1) value.fail("sequence length must be a positive integer, got " + value.as_string());
  } else if (key == "system") {
    point.system = resolve_path(value.as_string(), scenario_dir);
    if (!fs::exists(point.system)) value.fail("system file '" + point.system + "' does not exist");
  } else if (key == "objective") {
    point.objective = value.as_string();
    expect_one_of(value, point.objective, {"time", "energy", "edp"});
  } else if (key == "profile") {
    point.profile = value.as_string();
    expect_one_of(value, point.profile, {"default", "lightcode"});
  } else if (key == "fidelity") {
    point.fidelity = value.as_string();
    expect_one_of(value, point.fidelity, {"analytical", "event"});
  } else {
    value.fail("'" + key + "' is not a scenario field");
  }
}

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(SourcePlace{path, 0, 0, ""}, "cannot open scenario file");
  std::stringstream ss;
  ss << in.rdbuf();
  Scenario s;
  s.file = path;
  s.text = ss.str();
  const std::string dir = fs::path(path).parent_path().string();
  const ConfigNode root = ConfigNode::parse(s.text, path, dir.empty() ? "." : dir);
  std::vector<std::string> allowed{"name", "description", "output", "sweep"};
  allowed.insert(allowed.end(), kPointKeys.begin(), kPointKeys.end());
  root.allow_only(allowed);
  s.name = root.has("name") ? root.string("name") : fs::path(path).stem().string();
  if (root.has("output")) s.output = resolve_path(root.string("output"), dir.empty() ? "." : dir);

  PointSpec base;
  for (const std::string& key : kPointKeys) {
    if (root.has(key)) set_point_field(base, key, root.at(key), dir.empty() ? "." : dir);
  }
  // Axes: name -> list of values, in file order.
  std::vector<std::pair<std::string, ConfigNode>> axes;
  if (root.has("sweep")) {
    const ConfigNode sweep = root.at("sweep");
    sweep.allow_only(kPointKeys);
    for (const std::string& key : sweep.keys()) {
      const ConfigNode values = sweep.at(key);
      if (!values.is_list()) values.fail("a sweep axis is a list of values");
      if (values.size() == 0) values.fail("sweep axis '" + key + "' is empty");
      axes.emplace_back(key, values);
    }
  }
  std::vector<size_t> index(axes.size(), 0);
  for (;;) {
    PointSpec p = base;
    for (size_t a = 0; a < axes.size(); ++a) {
      const ConfigNode v = axes[a].second[index[a]];
      set_point_field(p, axes[a].first, v, dir.empty() ? "." : dir);
      p.parameters.emplace_back(axes[a].first, v.as_string());
    }
    char id[16];
    std::snprintf(id, sizeof id, "p%04zu", s.points.size());
    p.id = id;
    s.points.push_back(std::move(p));
    // Odometer with the first axis outermost.
    size_t a = axes.size();
    while (a > 0 && ++index[a - 1] == axes[a - 1].second.size()) index[--a] = 0;
    if (a == 0) break;
  }
  for (const PointSpec& p : s.points) {
    if (p.model.empty()) root.fail("missing key 'model' (a built-in model name or a TVM graph file)");
    if (p.system.empty()) root.fail("missing key 'system' (a configs/systems/*.yaml file)");
    if (p.sequence_length == 0) root.fail("missing key 'sequence_length'");
  }
  return s;
}

}  // namespace lightcode::sweep
