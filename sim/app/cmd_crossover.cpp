// `lightcode crossover <scenario.yaml>`: the sequence lengths at which the best system for a
// model changes (a dispatch table by prompt length, per objective), found by bracketing and
// bisection over analytical simulation points, plus per-op photonic thresholds for one system.
// Writes the table as YAML and JSON (default <out-dir>/<scenario name>.yaml / .json).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/app/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/opt/objective.hpp"
#include "sim/core/output_file.hpp"
#include "sim/sweep/crossover.hpp"

namespace lightcode::app {
namespace {

namespace fs = std::filesystem;

struct CrossoverOptions {
  std::string scenario;
  std::optional<std::string> out_dir;
  std::string json;
  std::string yaml;
  std::vector<std::string> objectives;
  std::string range;
  int grid = 20;
};

// "LO:HI" -> {LO, HI}; both positive, LO <= HI.
std::pair<int64_t, int64_t> parse_range(const std::string& text) {
  const size_t colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    size_t used_lo = 0, used_hi = 0;
    const std::string lo_text = text.substr(0, colon), hi_text = text.substr(colon + 1);
    const int64_t lo = std::stoll(lo_text, &used_lo), hi = std::stoll(hi_text, &used_hi);
    if (used_lo != lo_text.size() || used_hi != hi_text.size()) throw std::invalid_argument("trailing text");
    sweep::check_range(lo, hi);
    return {lo, hi};
  } catch (const std::logic_error&) {
    throw Error("--range: expected LO:HI with integers 1 <= LO <= HI, got '" + text + "'");
  }
}

std::string metric_text(double v, const std::string& objective) {
  char buf[48];
  if (objective == "time") {
    std::snprintf(buf, sizeof buf, "%.6g s", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4e %s", v, std::string(sweep::metric_unit(objective)).c_str());
  }
  return buf;
}

void print_table(const sweep::CrossoverResult& r, const sweep::DispatchTable& t) {
  const int64_t size = r.scenario.stop - r.scenario.start + 1;
  std::printf("\n%s objective: best system by sequence length\n", t.objective.c_str());
  std::printf("  %-8s %-8s %-10s %-18s %-18s\n", "from", "to", "system", "metric at from", "metric at to");
  for (const sweep::DispatchRange& d : t.ranges) {
    const sweep::SystemRef& sys = r.systems[static_cast<size_t>(d.system)];
    std::printf("  %-8lld %-8lld %-10s %-18s %-18s\n", static_cast<long long>(d.from), static_cast<long long>(d.to),
                sys.name.c_str(), metric_text(d.metric_from, t.objective).c_str(),
                metric_text(d.metric_to, t.objective).c_str());
  }
  std::printf("  %zu evaluations at %zu lengths for %zu systems over %lld lengths (a full scan: %lld), %.2f s\n",
              t.evaluations, t.lengths_probed, r.systems.size(), static_cast<long long>(size),
              static_cast<long long>(size) * static_cast<long long>(r.systems.size()), t.seconds);
}

void print_thresholds(const sweep::CrossoverResult& r, const opt::ThresholdReport& t) {
  std::printf("\nper-op photonic thresholds on %s, %s objective (%zu graphs built)\n", r.threshold_system->name.c_str(),
              std::string(opt::objective_name(t.objective)).c_str(), t.lengths_probed);
  std::printf("  %-14s %-8s %-6s %s\n", "threshold", "kind", "ops", "examples");
  for (const opt::ThresholdGroup& g : t.groups) {
    std::string when = !g.threshold ? "never" : g.from_start ? "<= " + std::to_string(*g.threshold)
                                                             : std::to_string(*g.threshold);
    if (g.photonic_ranges.size() > 1 || (g.threshold && g.photonic_ranges.back().second != t.hi)) when += " (*)";
    std::string examples;
    for (size_t i = 0; i < g.ops.size() && i < 3; ++i) examples += (i ? ", " : "") + g.ops[i];
    if (g.ops.size() > 3) examples += ", ...";
    std::printf("  %-14s %-8s %-6zu %s\n", when.c_str(), g.kind.c_str(), g.ops.size(), examples.c_str());
  }
  std::printf("  (<= L: photonic already cheaper at the range start; (*): not photonic up to the range end,\n"
              "   see photonic_ranges in the output files)\n");
}

int run(const CrossoverOptions& o) {
  sweep::CrossoverScenario s = sweep::load_crossover(o.scenario);
  if (!o.objectives.empty()) s.objectives = o.objectives;
  if (!o.range.empty()) std::tie(s.start, s.stop) = parse_range(o.range);
  // An explicit --out-dir wins over the scenario's `output:`; explicit file paths over both.
  const std::string base = o.out_dir ? (fs::path(*o.out_dir) / s.name).string()
                           : !s.output.empty() ? s.output
                                               : (fs::path("results") / s.name).string();
  const std::string yaml = o.yaml.empty() ? base + ".yaml" : o.yaml;
  const std::string json = o.json.empty() ? base + ".json" : o.json;
  // Before any work: neither may be an input of the run (the scenario itself, a system file).
  check_output_path(yaml);
  check_output_path(json);
  if (fs::absolute(yaml).lexically_normal() == fs::absolute(json).lexically_normal()) {
    throw Error("--yaml and --json name the same file '" + yaml + "'");
  }
  const sweep::CrossoverResult r = sweep::run_crossover(s, o.grid);

  std::printf("crossover %s: %s %s, profile %s, lengths %lld..%lld\n", s.name.c_str(), s.model.c_str(),
              std::string(stage_name(s.stage)).c_str(), s.profile.c_str(), static_cast<long long>(s.start), static_cast<long long>(s.stop));
  for (const sweep::DispatchTable& t : r.tables) print_table(r, t);
  for (const opt::ThresholdReport& t : r.thresholds) print_thresholds(r, t);

  write_output_file(yaml, sweep::dispatch_yaml(r));
  write_output_file(json, sweep::dispatch_json(r));
  std::printf("\ndispatch table: %s, %s\n", yaml.c_str(), json.c_str());
  return 0;
}

}  // namespace

void register_crossover(CLI::App& app, CommandAction& action) {
  auto o = std::make_shared<CrossoverOptions>();
  CLI::App* cmd = app.add_subcommand(
      "crossover",
      "Find the sequence lengths at which the best system for a model changes: for each objective,\n"
      "a dispatch table (length ranges -> system, with the metric at both ends) found by evaluating\n"
      "a coarse geometric grid of lengths and bisecting where the winner changes (analytical\n"
      "fidelity), plus per-op photonic thresholds for the scenario's `thresholds: {system: ...}`.\n"
      "Ties go to the system listed first.\n\n"
      "  lightcode crossover scenarios/crossover.yaml\n"
      "  lightcode crossover scenarios/crossover.yaml --objective time --range 100:2000 --out-dir /tmp/xo");
  cmd->add_option("scenario", o->scenario, "Crossover scenario YAML (scenarios/crossover.yaml)")->required();
  cmd->add_option("--out-dir", o->out_dir,
                  "Folder for <name>.yaml and <name>.json (default: the scenario's `output:`, else results/)");
  cmd->add_option("--yaml", o->yaml, "Write the YAML dispatch table here");
  cmd->add_option("--json", o->json, "Write the JSON dispatch table here");
  cmd->add_option("--objective", o->objectives, "Only these objectives (time, energy, edp); repeatable")
      ->check(CLI::IsMember(opt::objective_names()));
  cmd->add_option("--range", o->range, "Replace the scenario's lengths: LO:HI (inclusive)");
  cmd->add_option("--grid", o->grid, "Coarse grid points before bisection (default 20)")->check(CLI::Range(2, 1000));
  cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace lightcode::app
