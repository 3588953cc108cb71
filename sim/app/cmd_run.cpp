// `lightcode run <scenario.yaml>`: every point of a scenario in turn (an event-fidelity point in
// a worker process of its own, as SystemC elaborates once per process; analytical ones here);
// the seed table's columns on the console (with generation's and serving's figures when a
// point generates or serves) and one HDF5 results file.
#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "sim/app/commands.hpp"
#include "sim/app/overrides.hpp"
#include "sim/core/error.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/input_file.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/listing.hpp"
#include "sim/sweep/run_scenario.hpp"
#include "sim/stages/stage.hpp"

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

int run(const RunOptions& o) {
  const uint64_t mark = input_mark();  // the files read from here on are the scenario's inputs
  const sweep::Scenario scenario = sweep::load_scenario(o.scenario, o.sets);
  sweep::ScenarioRunOptions options;
  options.out = o.out;
  if (o.no_contention) options.settings.push_back("contention=false");
  if (o.spill_sram) options.settings.push_back("spill_sram=true");
  if (!o.listing.empty()) options.extra_outputs.push_back(o.listing);
  options.point.engine.contention = !o.no_contention;
  options.point.engine.spill_sram = o.spill_sram;
  options.point.every_task = !o.listing.empty();  // a generation's every step in the listing
  options.point.threads = o.threads;
  options.trace = o.trace;
  options.vcd = o.vcd;
  std::ostringstream listing;
  const size_t count = scenario.points.size();
  const bool progress = count > 1 && ::isatty(STDERR_FILENO) != 0;
  options.on_point = [&](size_t index, const results::PointResult& result, double seconds) {
    const sweep::PointSpec& p = scenario.points[index];
    if (progress) {  // a terminal watching a long run (a serving study takes minutes) sees it move
      std::cerr << "[" << index + 1 << "/" << count << "] " << p.id << " " << results::status_name(result.summary.status)
                << ", " << std::fixed << std::setprecision(1) << seconds << " s\n"
                << std::defaultfloat;
    }
    if (result.summary.status != results::Status::ok) {
      std::cerr << "lightcode: error: point " << p.id << ": " << result.summary.error << "\n";
      return;
    }
    if (!o.listing.empty()) {
      listing << "# point " << p.id << ": " << result.summary.system << ", " << p.model << " " << stage_name(p.stage) << " "
              << p.sequence_length << "\n";
      results::write_listing(listing, result);
    }
    if (o.details) std::cout << results::format_point_details(result) << "\n";
  };
  const sweep::ScenarioRun done = sweep::run_scenario(scenario, mark, options);
  std::cout << results::format_seed_table(done.summaries) << results::format_serve_table(done.summaries);
  if (!o.listing.empty()) write_output_file(o.listing, listing.str());
  std::cout << "results: " << done.out << (o.listing.empty() ? "" : ", listing: " + o.listing) << "\n";
  return done.failed ? 2 : 0;
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
