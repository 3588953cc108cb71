// `lightcode run <scenario.yaml>`: every point of a scenario in turn (an event-fidelity point in
// a worker process of its own, as SystemC elaborates once per process; analytical ones here);
// the seed table's columns on the console (with generation's and serving's figures when a
// point generates or serves) and one HDF5 results file.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "sim/app/commands.hpp"
#include "sim/app/overrides.hpp"
#include "sim/core/error.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/results/listing.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/sweep/scenario.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/provenance.hpp"

namespace lightcode::app {
namespace {

struct RunOptions {
  std::string scenario;
  std::vector<std::string> sets;  // --set key=value, then the named flags' (sugar over --set)
  std::string out;
  std::string listing;
  std::string trace;
  std::string vcd;
  bool no_contention = false;
  bool spill_sram = false;
  bool details = false;
  int threads = hardware_threads();
};

// A per-point file name: the path itself for one point, else "<stem>.<id><ext>".
std::string per_point(const std::string& path, const std::string& id, size_t points) {
  if (path.empty() || points == 1) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + id + p.extension().string())).string();
}

std::string default_output(const sweep::Scenario& s) {
  return s.output.empty() ? "results/" + s.name + ".h5" : s.output;
}

// Each output is a writable path, none an input of the run, no two the same file.
void check_outputs(const std::vector<std::string>& outputs) {
  std::set<std::string> seen;
  for (const std::string& path : outputs) {
    check_output_path(path);
    if (!seen.insert(std::filesystem::absolute(path).lexically_normal().string()).second) {
      throw Error("two outputs of this run are the same file '" + path + "'");
    }
  }
}

results::PointResult run_here(const sweep::PointSpec& p, const sweep::PointOptions& options) {
  try {
    return sweep::run_point(p, options).result;
  } catch (const Error& e) {
    return sweep::failed_point(p, e.what());
  }
}

int run(const RunOptions& o) {
  const uint64_t mark = input_mark();  // the files read from here on are the scenario's inputs
  const sweep::Scenario scenario = sweep::load_scenario(o.scenario, o.sets);
  std::string vcd = o.vcd;
  if (!vcd.empty() && std::filesystem::path(vcd).extension() != ".vcd") vcd += ".vcd";  // SystemC adds it
  for (const sweep::PointSpec& p : scenario.points) {
    if (!vcd.empty() && p.fidelity != Fidelity::event) {
      throw Error("--vcd records the event engine, but point " + p.id + " (stage " + std::string(stage_name(p.stage)) +
                  ") runs at " + std::string(fidelity_name(p.fidelity)) +
                  " fidelity (--fidelity event, where its stage reads `fidelity`)");
    }
    if (!o.trace.empty() && !(sweep::stage_info(p.stage).summary_parts & results::kGraphFigures)) {
      throw Error("--trace writes a timeline of placed tasks, which point " + p.id + " (stage " +
                  std::string(stage_name(p.stage)) + ") does not have: its requests and queues are in the results file");
    }
  }
  // Every input is read and every output checked before the first point runs.
  sweep::validate_point_inputs(scenario.points);
  const std::string out = o.out.empty() ? default_output(scenario) : o.out;
  std::vector<std::string> outputs{out};
  if (!o.listing.empty()) outputs.push_back(o.listing);
  for (const sweep::PointSpec& p : scenario.points) {
    if (!o.trace.empty()) outputs.push_back(per_point(o.trace, p.id, scenario.points.size()));
    if (!vcd.empty()) outputs.push_back(per_point(vcd, p.id, scenario.points.size()));
  }
  check_outputs(outputs);
  const OutputLock lock(out, "run " + o.scenario);  // no sweep or run writes `out` meanwhile

  // The results record what they were computed from (sim/sweep/provenance.hpp).
  std::vector<std::string> settings = scenario.sets;
  if (o.no_contention) settings.push_back("contention=false");
  if (o.spill_sram) settings.push_back("spill_sram=true");
  results::ResultsFile file = sweep::results_header(scenario, settings, inputs_read_since(mark));
  std::vector<results::PointSummary> rows;
  std::ostringstream listing;
  int failed = 0;
  const bool progress = scenario.points.size() > 1 && ::isatty(STDERR_FILENO) != 0;
  for (const sweep::PointSpec& p : scenario.points) {
    sweep::PointOptions options;
    options.engine.contention = !o.no_contention;
    options.engine.spill_sram = o.spill_sram;
    options.engine.vcd_path = per_point(vcd, p.id, scenario.points.size());
    options.trace_path = per_point(o.trace, p.id, scenario.points.size());
    options.every_task = !o.listing.empty();  // a generation's every step in the listing
    options.threads = o.threads;
    // The event engine runs once per process: each event point gets a worker process.
    const auto started = std::chrono::steady_clock::now();
    results::PointResult result =
        p.fidelity == Fidelity::event ? sweep::run_point_in_child(p, options) : run_here(p, options);
    if (progress) {  // a terminal watching a long run (a serving study takes minutes) sees it move
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "[" << file.points.size() + 1 << "/" << scenario.points.size() << "] " << p.id << " "
                << results::status_name(result.summary.status) << ", " << std::fixed << std::setprecision(1) << seconds << " s\n"
                << std::defaultfloat;
    }
    if (result.summary.status != results::Status::ok) {
      ++failed;
      std::cerr << "lightcode: error: point " << p.id << ": " << result.summary.error << "\n";
    } else {
      if (!o.listing.empty()) {
        listing << "# point " << p.id << ": " << result.summary.system << ", " << p.model << " " << stage_name(p.stage) << " "
                << p.sequence_length << "\n";
        results::write_listing(listing, result);
      }
      if (o.details) std::cout << results::format_point_details(result) << "\n";
    }
    rows.push_back(result.summary);
    file.points.push_back(std::move(result));
  }
  std::cout << results::format_seed_table(rows) << results::format_serve_table(rows);
  results::write_results(out, file);
  if (!o.listing.empty()) write_output_file(o.listing, listing.str());
  std::cout << "results: " << out << (o.listing.empty() ? "" : ", listing: " + o.listing) << "\n";
  return failed ? 2 : 0;
}

}  // namespace

void register_run(CLI::App& app, CommandAction& action) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a scenario: place every op of the model on the system's hardware, expand photonic\n"
      "products, schedule, and report: the seed table's columns on the console and an HDF5\n"
      "results file (default results/<scenario name>.h5). The default profile decides the\n"
      "placement with the schedule (every placement tried is scheduled and charged as the report\n"
      "charges it; --details prints the lower bound and the gap); the lightcode profile keeps the\n"
      "original's exact sum selection per subgraph.\n\n"
      "Stages: prefill, decode, generate (a prompt then new tokens: TTFT, time per output token and\n"
      "energy per token) and serve (a request stream on replicas with batching, KV memory and\n"
      "dispatch: latency percentiles, throughput, goodput and energy per token).\n\n"
      "  lightcode run scenarios/seed_table.yaml\n"
      "  lightcode run scenarios/seed_table.yaml --model ../shared/graphs/tvm/gpt2_prefill_seq5_graph.json\n"
      "  lightcode run scenarios/seed_table.yaml --listing results/seed.lst --details\n"
      "  lightcode run scenarios/generate.yaml\n"
      "  lightcode run scenarios/serving_dispatch.yaml --set requests.count=200\n"
      "  lightcode run scenarios/seed_table.yaml --set objective=energy   # exactly as editing the file");
  cmd->add_option("scenario", o->scenario, "Scenario YAML (scenarios/*.yaml)")->required();
  add_scenario_overrides(*cmd, o->sets);
  cmd->add_option("--out", o->out, "Results file (HDF5); default from the scenario's `output:`");
  cmd->add_option("--listing", o->listing, "Write the instruction listing (one line per task) here");
  cmd->add_flag("--no-contention", o->no_contention,
                "Event fidelity: transfers take their model time without queueing on links\n"
                "(the analytical timeline, exactly, in the default profile)");
  cmd->add_flag("--spill-sram", o->spill_sram, "Event fidelity: spill to HBM when SRAM would overflow (default: error)");
  cmd->add_option("--trace", o->trace, "Write a Perfetto / Chrome trace (JSON) of the timeline; per point when several");
  cmd->add_option("--vcd", o->vcd, "Event fidelity: write unit busy signals as a VCD waveform (GTKWave)");
  cmd->add_flag("--details", o->details, "Print each point's energy breakdown and unit utilisation");
  cmd->add_option("--threads", o->threads,
                  "Threads a point may use: generate plans decode steps ahead, serve prices graphs two at a time (the results are the same for any count)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace lightcode::app
