#include "sim/sweep/crossover.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "frontend/load_model.hpp"
#include "hw_models/system.hpp"
#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/params.hpp"
#include "sim/stages/stage.hpp"
#include "sim/stages/stage_rows.hpp"
#include "sim/sweep/tables.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;

// Pins every switch inside [a, b] (whose ends' winners differ) to two adjacent lengths.
void refine(int64_t a, int64_t b, const std::function<int(int64_t)>& best) {
  if (b - a <= 1) return;
  const int64_t m = a + (b - a) / 2;
  const int wm = best(m);
  if (wm != best(a)) refine(a, m, best);
  if (wm != best(b)) refine(m, b, best);
}

PointSpec point_for(const CrossoverScenario& s, const std::string& system, const std::string& objective,
                    int64_t length) {
  PointSpec p;
  p.id = "xo";
  p.model = s.model;
  p.traced_length = s.traced_length;
  p.stage = s.stage;
  p.logits = s.logits;
  p.precision = s.precision;
  p.sequence_length = length;
  p.system = system;
  p.objective = objective;
  p.profile = s.profile;
  p.fidelity = Fidelity::analytical;  // in-process and cheap; the event engine runs once per process
  return p;
}

// A number YAML 1.1 readers (PyYAML) and JSON both take as a float: 1e-05 -> 1.0e-05.
std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  std::string s = buf;
  const size_t e = s.find('e');
  if (e != std::string::npos && s.find('.') == std::string::npos) s.insert(e, ".0");
  return s;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string threshold_text(const opt::ThresholdGroup& g) { return g.threshold ? std::to_string(*g.threshold) : "null"; }

std::string ranges_text(const std::vector<std::pair<int64_t, int64_t>>& rs) {
  std::string s = "[";
  for (const auto& [a, b] : rs) s += (s.size() > 1 ? ", [" : "[") + std::to_string(a) + ", " + std::to_string(b) + "]";
  return s + "]";
}

template <class T, class Format>
std::string list_text(const std::vector<T>& values, const Format& format) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + format(values[i]);
  return s + "]";
}

std::string names_text(const std::vector<std::string>& names) {
  std::string s = "[";
  for (const std::string& n : names) s += (s.size() > 1 ? ", " : "") + quoted(n);
  return s + "]";
}

}  // namespace

// ---- (1) ----

CrossoverSearch find_crossovers(int options, int64_t lo, int64_t hi, const CostFunction& cost, int grid_points) {
  if (options < 2) throw Error("crossover search needs at least two options, got " + std::to_string(options));
  if (hi < lo) throw Error("crossover search: empty range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  std::map<int64_t, std::vector<double>> memo;  // length -> cost of every option
  const std::function<int(int64_t)> best = [&](int64_t length) {
    auto it = memo.find(length);
    if (it == memo.end()) {
      std::vector<double> costs;
      for (int o = 0; o < options; ++o) {
        const double c = cost(o, length);
        if (std::isnan(c)) throw Error("crossover search: cost of option " + std::to_string(o) + " at length " + std::to_string(length) + " is not a number");
        costs.push_back(c);
      }
      it = memo.emplace(length, std::move(costs)).first;
    }
    int w = 0;
    for (int o = 1; o < options; ++o) {
      if (it->second[static_cast<size_t>(o)] < it->second[static_cast<size_t>(w)]) w = o;  // ties: lower index
    }
    return w;
  };
  const std::vector<int64_t> grid = opt::geometric_grid(lo, hi, grid_points);
  for (int64_t l : grid) best(l);
  for (size_t k = 0; k + 1 < grid.size(); ++k) {
    if (best(grid[k]) != best(grid[k + 1])) refine(grid[k], grid[k + 1], best);
  }
  // Every switch lies between adjacent probed lengths, so runs of one winner are segments.
  CrossoverSearch out;
  for (const auto& entry : memo) {
    const int64_t l = entry.first;
    const int w = best(l);
    const double c = entry.second[static_cast<size_t>(w)];
    if (out.segments.empty() || out.segments.back().best != w) {
      if (!out.segments.empty()) {
        Segment& prev = out.segments.back();
        prev.to = l - 1;
        prev.cost_to = memo.at(l - 1)[static_cast<size_t>(prev.best)];
      }
      out.segments.push_back(Segment{l, hi, w, c, c});
    }
  }
  out.segments.back().cost_to = memo.at(hi)[static_cast<size_t>(out.segments.back().best)];
  out.evaluated.assign(memo.begin(), memo.end());
  out.lengths_probed = memo.size();
  out.evaluations = memo.size() * static_cast<size_t>(options);
  return out;
}

// ---- (2) ----

void check_range(int64_t lo, int64_t hi) {
  if (lo < 1) throw Error("length range: start must be a positive integer, got " + std::to_string(lo));
  if (hi > limits::kSequenceLength.value) {
    throw Error("length range: stop must be at most " + std::to_string(limits::kSequenceLength.value) + " (" +
                std::string(limits::kSequenceLength.name) + "), got " + std::to_string(hi));
  }
  if (hi < lo) {
    throw Error("length range: empty or inverted, stop " + std::to_string(hi) + " < start " + std::to_string(lo));
  }
}

namespace {

// A list-valued key (Params reads scalars and mappings): its node, recorded as read.
ConfigNode list_at(const Params& params, const std::string& key) {
  if (!params.has(key)) params.node().fail("missing key '" + key + "' (" + params.table().find(key)->help + ")");
  params.mark(key);
  return params.at(key);
}

}  // namespace

CrossoverScenario parse_crossover(std::string_view text, const std::string& file, const std::string& dir) {
  const std::string base = dir.empty() ? "." : dir;
  const ConfigNode root = ConfigNode::parse(text, file, base);
  ConfigUsage usage;
  const Params params(root, crossover_table(), usage);
  CrossoverScenario s;
  s.file = file;
  s.text = std::string(text);
  s.name = params.text_if("name").value_or(fs::path(file).stem().string());
  s.stage = parse_stage(params.choice("stage"));
  // Model, traced length and profile validate exactly as in sweep scenarios (the same rows).
  params.text("model");  // required
  s.model = rows::model_value(params.at("model"));
  if (frontend::is_graph_file(s.model) && params.has("traced_length")) s.traced_length = params.count("traced_length");
  if (!frontend::is_graph_file(s.model) && params.has("logits")) s.logits = params.choice("logits");
  s.profile = params.text("profile");
  if (params.has("profile")) rows::profile_value(params.at("profile"));

  const ConfigNode systems = list_at(params, "systems");
  if (!systems.is_list()) systems.fail("a list of system files");
  if (systems.size() < 2) {
    systems.fail("a crossover compares at least two systems, got " + std::to_string(systems.size()));
  }
  for (size_t i = 0; i < systems.size(); ++i) {
    const std::string system = rows::system_value(systems[i]);
    for (const std::string& seen : s.systems) {
      if (seen == system) systems[i].fail("system '" + system + "' is listed twice");
    }
    s.systems.push_back(system);
  }
  // Read when some system's point reads it, as in sweep scenarios.
  bool precision_read = false;
  for (const std::string& system : s.systems) {
    precision_read = precision_read || rows::system_models_precision(system, s.profile);
  }
  if (params.has("precision") && precision_read) s.precision = params.count("precision");

  const ConfigNode objectives = list_at(params, "objectives");
  if (!objectives.is_list() || objectives.size() == 0) objectives.fail("a non-empty list of time, energy, edp");
  for (size_t i = 0; i < objectives.size(); ++i) {
    const std::string objective = rows::objective_value(objectives[i]);
    for (const std::string& seen : s.objectives) {
      if (seen == objective) objectives[i].fail("objective '" + objective + "' is listed twice");
    }
    s.objectives.push_back(objective);
  }

  const Params lengths = *params.table_if("lengths");  // required
  s.start = lengths.count("start");
  s.stop = lengths.count("stop");
  if (s.stop < s.start) {
    lengths.node().fail("empty or inverted range: stop " + std::to_string(s.stop) + " < start " + std::to_string(s.start));
  }

  if (const auto thresholds = params.table_if("thresholds")) {
    thresholds->text("system");  // required
    s.threshold_system = rows::system_value(thresholds->at("system"));
  }
  if (const auto output = params.text_if("output")) {
    const fs::path out(*output);
    s.output = out.is_absolute() ? out.string() : (fs::path(base) / out).lexically_normal().string();
  }
  check_all_read(root, crossover_table(), usage, [&](const std::string& key) {
    if (key == "precision") return "this crossover scenario (no system listed has " + rows::precision().when + ")";
    return std::string("this crossover scenario (its model is a built-in one)");
  });
  return s;
}

CrossoverScenario load_crossover(const std::string& path) {
  return parse_crossover(read_input_file(path, "crossover scenario file", limits::kConfigFileBytes), path,
                         fs::path(path).parent_path().string());
}

// ---- (3) ----

double point_cost(const CrossoverScenario& s, const std::string& system, const std::string& objective,
                  int64_t length) {
  const results::PointSummary sum = run_point(point_for(s, system, objective, length)).result.summary;
  return opt::objective_named(objective).score(sum.makespan, sum.energy_pj);
}

opt::GraphAtLength scenario_graphs(const CrossoverScenario& s) {
  const hw::Profile& profile = hw::profile_named(s.profile);
  frontend::ModelRequest req;
  req.model = s.model;
  req.stage = s.stage == Stage::decode ? frontend::Stage::decode : frontend::Stage::prefill;
  req.traced_length = s.traced_length;
  req.logits = frontend::logits_for(s.logits, profile.logits_for_every_token());
  req.precision_bits = static_cast<int>(s.precision);
  // Same input-type rule as run_point, so the thresholds see the placement's edge tensors.
  req.input_rule = profile.input_rule();
  return [req](int64_t length) {
    frontend::ModelRequest r = req;
    r.length = length;
    return frontend::load_model(r);
  };
}

CrossoverResult run_crossover(const CrossoverScenario& s, int grid_points) {
  check_range(s.start, s.stop);
  if (s.systems.size() < 2) throw Error("a crossover compares at least two systems");
  const hw::Profile& profile = hw::profile_named(s.profile);
  CrossoverResult r;
  r.scenario = s;
  for (const std::string& f : s.systems) r.systems.push_back(SystemRef{hw::System::load(f, profile).name(), f});
  for (const std::string& objective : s.objectives) {
    const opt::ObjectiveInfo& info = opt::objective_named(objective);
    const auto t0 = std::chrono::steady_clock::now();
    const CrossoverSearch search = find_crossovers(
        static_cast<int>(s.systems.size()), s.start, s.stop,
        [&](int option, int64_t length) { return point_cost(s, s.systems[static_cast<size_t>(option)], objective, length); },
        grid_points);
    DispatchTable table;
    table.objective = objective;
    table.evaluations = search.evaluations;
    table.lengths_probed = search.lengths_probed;
    for (const Segment& seg : search.segments) {
      table.ranges.push_back(DispatchRange{seg.from, seg.to, seg.best, info.reported(seg.cost_from),
                                           info.reported(seg.cost_to)});
    }
    table.curve_metrics.assign(s.systems.size(), {});
    for (const auto& [length, costs] : search.evaluated) {
      table.curve_lengths.push_back(length);
      for (size_t k = 0; k < costs.size(); ++k) table.curve_metrics[k].push_back(info.reported(costs[k]));
    }
    table.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.tables.push_back(std::move(table));
  }
  if (!s.threshold_system.empty()) {
    const hw::System system = hw::System::load(s.threshold_system, profile);
    r.threshold_system = SystemRef{system.name(), s.threshold_system};
    const opt::GraphAtLength graphs = scenario_graphs(s);
    for (const std::string& objective : s.objectives) {
      r.thresholds.push_back(
          opt::find_thresholds(graphs, system, opt::objective_named(objective).id, s.start, s.stop, grid_points));
    }
  }
  return r;
}

// ---- (4) ----

std::string_view metric_unit(const std::string& objective) { return opt::objective_named(objective).unit; }

std::string dispatch_yaml(const CrossoverResult& r) {
  const CrossoverScenario& s = r.scenario;
  std::ostringstream y;
  y << "# LightCode crossover: per objective, which system to run a prompt of each length on\n"
       "# (ranges inclusive; metric_from/metric_to: the winner's metric at the range's ends).\n";
  y << "name: " << quoted(s.name) << "\nscenario: " << quoted(s.file) << "\nmodel: " << quoted(s.model)
    << "\nstage: " << stage_name(s.stage) << "\nprofile: " << s.profile << "\nlengths: {start: " << s.start
    << ", stop: " << s.stop << "}\nsystems:\n";
  for (const SystemRef& sys : r.systems) y << "  - {name: " << quoted(sys.name) << ", file: " << quoted(sys.file) << "}\n";
  y << "dispatch:\n";
  for (const DispatchTable& t : r.tables) {
    y << "  " << t.objective << ":\n    unit: " << quoted(std::string(metric_unit(t.objective)))
      << "\n    evaluations: " << t.evaluations << "\n    lengths_probed: " << t.lengths_probed
      << "\n    ranges:\n";
    for (const DispatchRange& d : t.ranges) {
      const SystemRef& sys = r.systems[static_cast<size_t>(d.system)];
      y << "      - {from: " << d.from << ", to: " << d.to << ", system: " << quoted(sys.name)
        << ", file: " << quoted(sys.file) << ", metric_from: " << number(d.metric_from)
        << ", metric_to: " << number(d.metric_to) << "}\n";
    }
  }
  y << "curves:\n";
  for (const DispatchTable& t : r.tables) {
    y << "  " << t.objective << ":\n    unit: " << quoted(std::string(metric_unit(t.objective)))
      << "\n    lengths: " << list_text(t.curve_lengths, [](int64_t v) { return std::to_string(v); })
      << "\n    systems:\n";
    for (size_t k = 0; k < r.systems.size(); ++k) {
      y << "      " << quoted(r.systems[k].name) << ": " << list_text(t.curve_metrics[k], number) << "\n";
    }
  }
  if (r.threshold_system) {
    y << "thresholds:\n  system: {name: " << quoted(r.threshold_system->name) << ", file: "
      << quoted(r.threshold_system->file) << "}\n";
    for (const opt::ThresholdReport& t : r.thresholds) {
      y << "  " << opt::objective_name(t.objective) << ":\n    lengths_probed: " << t.lengths_probed
        << "\n    groups:\n";
      for (const opt::ThresholdGroup& g : t.groups) {
        y << "      - {threshold: " << threshold_text(g) << ", from_start: " << (g.from_start ? "true" : "false")
          << ", kind: " << quoted(g.kind) << ", count: " << g.ops.size()
          << ", photonic_ranges: " << ranges_text(g.photonic_ranges) << ", ops: " << names_text(g.ops) << "}\n";
      }
    }
  }
  return y.str();
}

std::string dispatch_json(const CrossoverResult& r) {
  const CrossoverScenario& s = r.scenario;
  std::ostringstream j;
  j << "{\n  \"name\": " << quoted(s.name) << ",\n  \"scenario\": " << quoted(s.file) << ",\n  \"model\": "
    << quoted(s.model) << ",\n  \"stage\": " << quoted(std::string(stage_name(s.stage))) << ",\n  \"profile\": " << quoted(s.profile)
    << ",\n  \"lengths\": {\"start\": " << s.start << ", \"stop\": " << s.stop << "},\n  \"systems\": [";
  for (size_t i = 0; i < r.systems.size(); ++i) {
    j << (i ? ", " : "") << "{\"name\": " << quoted(r.systems[i].name) << ", \"file\": " << quoted(r.systems[i].file) << "}";
  }
  j << "],\n  \"dispatch\": {";
  for (size_t ti = 0; ti < r.tables.size(); ++ti) {
    const DispatchTable& t = r.tables[ti];
    j << (ti ? "," : "") << "\n    " << quoted(t.objective) << ": {\"unit\": " << quoted(std::string(metric_unit(t.objective)))
      << ", \"evaluations\": " << t.evaluations << ", \"lengths_probed\": " << t.lengths_probed << ", \"ranges\": [";
    for (size_t i = 0; i < t.ranges.size(); ++i) {
      const DispatchRange& d = t.ranges[i];
      const SystemRef& sys = r.systems[static_cast<size_t>(d.system)];
      j << (i ? "," : "") << "\n      {\"from\": " << d.from << ", \"to\": " << d.to << ", \"system\": " << quoted(sys.name)
        << ", \"file\": " << quoted(sys.file) << ", \"metric_from\": " << number(d.metric_from)
        << ", \"metric_to\": " << number(d.metric_to) << "}";
    }
    j << "]}";
  }
  j << "\n  },\n  \"curves\": {";
  for (size_t ti = 0; ti < r.tables.size(); ++ti) {
    const DispatchTable& t = r.tables[ti];
    j << (ti ? "," : "") << "\n    " << quoted(t.objective) << ": {\"unit\": " << quoted(std::string(metric_unit(t.objective)))
      << ", \"lengths\": " << list_text(t.curve_lengths, [](int64_t v) { return std::to_string(v); })
      << ", \"systems\": {";
    for (size_t k = 0; k < r.systems.size(); ++k) {
      j << (k ? ", " : "") << quoted(r.systems[k].name) << ": " << list_text(t.curve_metrics[k], number);
    }
    j << "}}";
  }
  j << "\n  }";
  if (r.threshold_system) {
    j << ",\n  \"thresholds\": {\"system\": {\"name\": " << quoted(r.threshold_system->name) << ", \"file\": "
      << quoted(r.threshold_system->file) << "}";
    for (const opt::ThresholdReport& t : r.thresholds) {
      j << ",\n    " << quoted(std::string(opt::objective_name(t.objective))) << ": {\"lengths_probed\": "
        << t.lengths_probed << ", \"groups\": [";
      for (size_t i = 0; i < t.groups.size(); ++i) {
        const opt::ThresholdGroup& g = t.groups[i];
        j << (i ? "," : "") << "\n      {\"threshold\": " << threshold_text(g) << ", \"from_start\": "
          << (g.from_start ? "true" : "false") << ", \"kind\": " << quoted(g.kind) << ", \"count\": " << g.ops.size()
          << ", \"photonic_ranges\": " << ranges_text(g.photonic_ranges) << ", \"ops\": " << names_text(g.ops) << "}";
      }
      j << "]}";
    }
    j << "}";
  }
  j << "\n}\n";
  return j.str();
}

}  // namespace lightcode::sweep
