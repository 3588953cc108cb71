// `lightcode sweep` (every point in worker processes, N at a time, resumable, shardable) and
// `lightcode merge` (shards into one results file).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "sim/app/commands.hpp"
#include "sim/app/overrides.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/stages/stage.hpp"

namespace lightcode::app {
namespace {

struct SweepCli {
  std::string scenario;
  int jobs = 1;
  bool resume = false;
  std::string shard = "1/1";
  std::string out;
  std::vector<std::string> sets;  // --set key=value, then the named flags' (sugar over --set)
  bool no_contention = false;
  bool quiet = false;
};

std::string one_decimal(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

int sweep(const SweepCli& c) {
  const uint64_t mark = input_mark();  // the files read from here on are the scenario's inputs
  const sweep::Scenario scenario = sweep::load_scenario(c.scenario, c.sets);
  sweep::SweepOptions o = sweep::sweep_options(scenario, mark, c.jobs, !c.no_contention, c.out);
  o.resume = c.resume;
  sweep::parse_shard(c.shard, o.shard_index, o.shard_count);
  if (!c.quiet) {
    o.progress = &std::cerr;
    o.progress_bar = ::isatty(STDERR_FILENO) != 0;
  }
  const sweep::SweepOutcome r = sweep::run_sweep(scenario, o);
  if (r.summaries.size() <= 40) {
    std::cout << results::format_seed_table(r.summaries) << results::format_serve_table(r.summaries);
  }
  std::cout << "sweep: " << r.points << " points (" << (o.shard_count > 1 ? "shard " + c.shard + " of " + std::to_string(scenario.points.size()) + ", " : "")
            << r.ran << " run, " << r.resumed << " resumed, " << r.failed << " failed) in " << one_decimal(r.seconds)
            << " s" << (r.ran > 0 ? ", " + one_decimal(static_cast<double>(r.ran) / r.seconds) + " points/s" : "") << "\n";
  std::cout << "results: " << o.output << "\n";
  return r.failed ? 2 : 0;
}

}  // namespace

void register_sweep(CLI::App& app, CommandAction& action) {
  auto c = std::make_shared<SweepCli>();
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run every point of a scenario's `sweep:` axes, one worker process per point, N at a time.\n"
      "Finished points are kept as they finish; --resume continues an interrupted sweep.\n\n"
      "  lightcode sweep scenarios/phu_scaling.yaml -j 2\n"
      "  lightcode sweep scenarios/phu_scaling.yaml -j 2 --resume\n"
      "  lightcode sweep scenarios/serving_dispatch.yaml --set 'sweep.batching.max_batch=[8, 32]'\n"
      "  lightcode sweep scenarios/phu_scaling.yaml --shard 3/8 --out results/part3.h5   # then: lightcode merge");
  cmd->add_option("scenario", c->scenario, "Scenario YAML with `sweep:` axes")->required();
  cmd->add_option("-j,--jobs", c->jobs, "Worker processes at a time")->capture_default_str();
  cmd->add_flag("--resume", c->resume, "Skip points already done in the results file (or its .parts)");
  cmd->add_option("--shard", c->shard, "Run the K-th of N deterministic slices of the points: K/N")->capture_default_str();
  cmd->add_option("--out", c->out, "Results file (default: the scenario's `output:`, else results/<name>.h5)");
  add_scenario_overrides(*cmd, c->sets);
  cmd->add_flag("--no-contention", c->no_contention, "Event fidelity without link contention");
  cmd->add_flag("-q,--quiet", c->quiet, "No progress output");
  cmd->callback([c, &action] { action = [c] { return sweep(*c); }; });
}

void register_merge(CLI::App& app, CommandAction& action) {
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Combine results files of one scenario (shards of a sweep) into one, points in order:\n"
      "  lightcode merge results/part1.h5 results/part2.h5 -o results/all.h5\n"
      "Files of different scenarios merge when every point has the same stage (serving studies\n"
      "on different hardware, say): ids become <scenario name>.<id>, parameter `scenario` added.");
  cmd->add_option("files", *inputs, "Results files (HDF5): shards of one scenario, or studies of one stage")->required();
  cmd->add_option("-o,--out", *out, "Merged results file")->required();
  cmd->callback([inputs, out, &action] {
    action = [inputs, out] {
      const OutputLock lock(*out, "merge");
      const results::ResultsFile merged = sweep::merge_results(*inputs);
      results::write_results(*out, merged);
      std::cout << "merged " << inputs->size() << " files, " << merged.points.size() << " points: " << *out << "\n";
      return 0;
    };
  });
}

}  // namespace lightcode::app
