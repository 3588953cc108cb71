// run_scenario: the points of one scenario in turn, into one results file (run_scenario.hpp).
#include "sim/sweep/run_scenario.hpp"

#include <chrono>
#include <filesystem>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/provenance.hpp"

namespace lightcode::sweep {
namespace {

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

results::PointResult run_in_process(const PointSpec& p, const PointOptions& options) {
  try {
    return run_point(p, options).result;
  } catch (const Error& e) {
    return failed_point(p, e.what());
  }
}

// A --vcd or --trace that some point cannot have is refused before anything runs.
void check_recordings(const Scenario& scenario, const std::string& vcd, const std::string& trace) {
  for (const PointSpec& p : scenario.points) {
    if (!vcd.empty() && p.fidelity != Fidelity::event) {
      throw Error("--vcd records the event engine, but point " + p.id + " (stage " + std::string(stage_name(p.stage)) +
                  ") runs at " + std::string(fidelity_name(p.fidelity)) +
                  " fidelity (--fidelity event, where its stage reads `fidelity`)");
    }
    if (!trace.empty() && !(stage_info(p.stage).summary_parts & results::kGraphFigures)) {
      throw Error("--trace writes a timeline of placed tasks, which point " + p.id + " (stage " +
                  std::string(stage_name(p.stage)) + ") does not have: its requests and queues are in the results file");
    }
  }
}

}  // namespace

std::string default_output(const Scenario& scenario) {
  return scenario.output.empty() ? "results/" + scenario.name + ".h5" : scenario.output;
}

std::string per_point_path(const std::string& path, const std::string& id, size_t points) {
  if (path.empty() || points == 1) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + id + p.extension().string())).string();
}

ScenarioRun run_scenario(const Scenario& scenario, uint64_t mark, const ScenarioRunOptions& options) {
  std::string vcd = options.vcd;
  if (!vcd.empty() && std::filesystem::path(vcd).extension() != ".vcd") vcd += ".vcd";  // SystemC adds it
  check_recordings(scenario, vcd, options.trace);
  // Every input is read and every output checked before the first point runs.
  validate_point_inputs(scenario.points);
  ScenarioRun run;
  run.out = options.out.empty() ? default_output(scenario) : options.out;
  const size_t count = scenario.points.size();
  std::vector<std::string> outputs{run.out};
  outputs.insert(outputs.end(), options.extra_outputs.begin(), options.extra_outputs.end());
  for (const PointSpec& p : scenario.points) {
    if (!options.trace.empty()) outputs.push_back(per_point_path(options.trace, p.id, count));
    if (!vcd.empty()) outputs.push_back(per_point_path(vcd, p.id, count));
  }
  check_outputs(outputs);
  const OutputLock lock(run.out, "run " + scenario.file);  // no sweep or run writes `out` meanwhile

  std::vector<std::string> settings = scenario.sets;
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  results::ResultsFile file = results_header(scenario, settings, inputs_read_since(mark));
  for (size_t i = 0; i < count; ++i) {
    const PointSpec& p = scenario.points[i];
    PointOptions point = options.point;
    point.engine.vcd_path = per_point_path(vcd, p.id, count);
    point.trace_path = per_point_path(options.trace, p.id, count);
    const auto started = std::chrono::steady_clock::now();
    // The event engine runs once per process: each event point gets a worker process.
    results::PointResult result =
        p.fidelity == Fidelity::event ? run_point_in_child(p, point) : run_in_process(p, point);
    if (result.summary.status != results::Status::ok) ++run.failed;
    if (options.on_point) {
      options.on_point(i, result, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    run.summaries.push_back(result.summary);
    file.points.push_back(std::move(result));
  }
  results::write_results(run.out, file);
  return run;
}

}  // namespace lightcode::sweep
