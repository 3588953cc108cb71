// `lightcode dataset SCENARIO --out FILE.h5`: the runtime dataset of a scenario's every point
// (sim/dataset/dataset.hpp; docs/DATASET.md), and `lightcode dataset --schema`, the Markdown of
// its tables that docs/DATASET.md holds.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "sim/app/commands.hpp"
#include "sim/app/overrides.hpp"
#include "sim/core/error.hpp"
#include "sim/dataset/dataset.hpp"

namespace lightcode::app {
namespace {

struct DatasetCli {
  std::string scenario;
  std::string out;
  std::vector<std::string> sets;
  int jobs = 1;
  std::string validation_families;
  std::string test_families;
  bool schema = false;
  bool quiet = false;
};

// "a, b,c" -> {"a", "b", "c"}
std::vector<std::string> dataset_family_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    if (first != std::string::npos) out.push_back(item.substr(first, last - first + 1));
  }
  return out;
}

int make_dataset(const DatasetCli& c) {
  if (c.schema) {
    std::cout << dataset::schema_markdown();
    return 0;
  }
  if (c.scenario.empty())
    throw Error("lightcode dataset needs a scenario (or --schema); see lightcode dataset --help");
  if (c.out.empty()) throw Error("lightcode dataset needs --out FILE.h5");
  dataset::DatasetOptions o;
  o.out = c.out;
  o.jobs = c.jobs;
  o.validation_families = dataset_family_list(c.validation_families);
  o.test_families = dataset_family_list(c.test_families);
  if (!c.quiet) {
    o.progress = &std::cerr;
    o.progress_bar = ::isatty(STDERR_FILENO) != 0;
  }
  const dataset::DatasetSummary s = dataset::write_dataset(c.scenario, c.sets, o);
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f s, %.0f op records/s", s.seconds,
                s.seconds > 0 ? static_cast<double>(s.ops) / s.seconds : 0.0);
  std::cout << "dataset: " << s.points << " points (" << s.failed << " failed), " << s.graphs
            << " graphs, " << s.ops << " op records, " << s.edges << " edges, " << s.alternatives
            << " alternatives, " << s.iterations << " iterations, " << s.hardware
            << " hardware units, " << s.families << " families in " << rate << "\n"
            << "dataset: " << s.out << "\n";
  return s.failed ? 2 : 0;
}

}  // namespace

void register_dataset(CLI::App& app, CommandAction& action) {
  auto c = std::make_shared<DatasetCli>();
  CLI::App* cmd = app.add_subcommand(
      "dataset",
      "A runtime dataset for learning cost models: every point of a scenario (its sweep axes too) "
      "run,\n"
      "and what the simulator measured written as HDF5 tables: one row per op of every placed "
      "graph\n"
      "(kind, operand shapes, dtype, unit, predicted time, energy, bytes, FLOPs), per graph "
      "(makespan,\n"
      "energy, placement, the alternatives the search priced), per serving iteration, per "
      "hardware\n"
      "parameter; with provenance (version, scenario and input digests, fidelity, seeds) and a\n"
      "train/validation/test split by model family. Schema and loading: docs/DATASET.md.\n"
      "Same scenario and inputs, same bytes, whatever -j. A failed point is a /points row with "
      "its\n"
      "reason (exit 2), the others go on.\n\n"
      "  lightcode dataset scenarios/dataset.yaml --out results/dataset.h5 -j 2\n"
      "  lightcode dataset scenarios/dataset.yaml --out results/small.h5 --set "
      "'sweep.sequence_length=[64]'\n"
      "  lightcode dataset scenarios/dataset_scale.yaml --out /tmp/scale.h5 -j 2      # over 1 M "
      "op records\n"
      "  lightcode dataset scenarios/dataset.yaml --out d.h5 --test-families opt "
      "--validation-families bert\n"
      "  lightcode dataset --schema > schema.md\n"
      "  /usr/bin/python3 tools/learned_baseline.py results/dataset.h5   # the baseline cost "
      "model");
  cmd->add_option("scenario", c->scenario, "Scenario YAML (scenarios/dataset.yaml)");
  cmd->add_option("-o,--out", c->out, "The dataset file (HDF5)");
  add_scenario_overrides(*cmd, c->sets);
  cmd->add_option(
         "-j,--jobs", c->jobs,
         "Points at a time: threads (analytical points), or worker processes when a point runs at\n"
         "event fidelity (the file is the same for any count)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option(
      "--validation-families", c->validation_families,
      "Model families put in the validation split, comma-separated (others: by their name's hash)");
  cmd->add_option(
      "--test-families", c->test_families,
      "Model families put in the test split, comma-separated (others: by their name's hash)");
  cmd->add_flag("--schema", c->schema,
                "Print the dataset's schema (Markdown, docs/DATASET.md's section) and exit");
  cmd->add_flag("-q,--quiet", c->quiet, "No progress output");
  cmd->callback([c, &action] { action = [c] { return make_dataset(*c); }; });
}

}  // namespace lightcode::app
