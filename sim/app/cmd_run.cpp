// `lightcode run <scenario.yaml>`: every point of a scenario, in this process, at analytical
// fidelity; the seed table's columns on the console and one HDF5 results file.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "frontend/load_model.hpp"
#include "sim/app/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/results/listing.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::app {
namespace {

struct RunOptions {
  std::string scenario;
  std::optional<std::string> model;
  std::optional<int64_t> traced;
  std::optional<std::string> objective;
  std::optional<std::string> profile;
  std::string out;
  std::string listing;
  bool details = false;
};

std::string default_output(const sweep::Scenario& s) {
  return s.output.empty() ? "results/" + s.name + ".h5" : s.output;
}

int run(const RunOptions& o) {
  sweep::Scenario scenario = sweep::load_scenario(o.scenario);
  for (sweep::PointSpec& p : scenario.points) {
    if (o.model) {
      p.model = *o.model;
      if (frontend::is_graph_file(p.model) && !std::filesystem::exists(p.model)) {
        throw Error("--model: graph file '" + p.model + "' does not exist");
      }
    }
    if (o.traced) p.traced_length = *o.traced;
    if (o.objective) p.objective = *o.objective;
    if (o.profile) p.profile = *o.profile;
  }
  results::ResultsFile file;
  file.tool_version = "lightcode 0.1.0";
  file.scenario_text = scenario.text;
  std::vector<results::PointSummary> rows;
  std::ofstream listing;
  if (!o.listing.empty()) {
    listing.open(o.listing);
    if (!listing) throw Error("cannot write the listing to '" + o.listing + "'");
  }
  int failed = 0;
  for (const sweep::PointSpec& p : scenario.points) {
    results::PointResult result;
    try {
      sweep::PointRun r = sweep::run_point(p);
      result = std::move(r.result);
      if (listing) {
        listing << "# point " << p.id << ": " << result.summary.system << ", " << p.model << " "
                << p.stage << " " << p.sequence_length << "\n";
        results::write_listing(listing, result);
      }
      if (o.details) std::cout << results::format_point_details(result) << "\n";
    } catch (const Error& e) {
      ++failed;
      result.summary.id = p.id;
      result.summary.parameters = p.parameters;
      result.summary.model = p.model;
      result.summary.stage = p.stage;
      result.summary.sequence_length = p.sequence_length;
      result.summary.system = p.system;
      result.summary.objective = p.objective;
      result.summary.profile = p.profile;
      result.summary.fidelity = p.fidelity;
      result.summary.status = "failed";
      result.summary.error = e.what();
      std::cerr << "lightcode: error: point " << p.id << ": " << e.what() << "\n";
    }
    rows.push_back(result.summary);
    file.points.push_back(std::move(result));
  }
  std::cout << results::format_seed_table(rows);
  const std::string out = o.out.empty() ? default_output(scenario) : o.out;
  results::write_results(out, file);
  std::cout << "results: " << out << (o.listing.empty() ? "" : ", listing: " + o.listing) << "\n";
  return failed ? 2 : 0;
}

}  // namespace

void register_run(CLI::App& app, CommandAction& action) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a scenario: place every op of the model on the system's hardware (exact selection per\n"
      "subgraph), expand photonic products, schedule, and report: the seed table's columns on\n"
      "the console and an HDF5 results file (default results/<scenario name>.h5).\n\n"
      "  lightcode run scenarios/seed_table.yaml\n"
      "  lightcode run scenarios/seed_table.yaml --model ../shared/graphs/tvm/gpt2_prefill_seq5_graph.json\n"
      "  lightcode run scenarios/seed_table.yaml --listing results/seed.lst --details");
  cmd->add_option("scenario", o->scenario, "Scenario YAML (scenarios/*.yaml)")->required();
  cmd->add_option("--model", o->model, "Replace the scenario's model: a built-in name or a TVM graph JSON file");
  cmd->add_option("--traced-len", o->traced, "Sequence length the TVM graph was traced at (default: detected)");
  cmd->add_option("--objective", o->objective, "Replace the objective: time, energy or edp")
      ->check(CLI::IsMember({"time", "energy", "edp"}));
  cmd->add_option("--profile", o->profile, "Replace the profile: default or lightcode")
      ->check(CLI::IsMember({"default", "lightcode"}));
  cmd->add_option("--out", o->out, "Results file (HDF5); default from the scenario's `output:`");
  cmd->add_option("--listing", o->listing, "Write the instruction listing (one line per task) here");
  cmd->add_flag("--details", o->details, "Print each point's energy breakdown and unit utilisation");
  cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace lightcode::app
