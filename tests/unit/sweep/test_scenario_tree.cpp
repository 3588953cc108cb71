// A point is its scenario's tree with its axis values put in, read by its stage: `--set` is an
// edit of the file, any scenario key is an axis (a dotted path into a mapping too), a serve
// scenario's defaults are the tables' whether written out or not, and a key a point's stage
// does not read is the same error whether the file or the command line set it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;

namespace {

std::string systems() { return test::source_dir() + "/configs/systems/"; }

// The bytes of a results file holding `points`' results under a fixed header: equal bytes,
// equal figures in every table.
std::string results_bytes(const test::Scratch& s, const std::vector<sweep::PointSpec>& points) {
  results::ResultsFile f;
  f.tool_version = "test";
  f.scenario_text = "same";
  for (const sweep::PointSpec& p : points) {
    f.points.push_back(sweep::run_point(p).result);
    // Graphs built depend on what the process built before (iteration costs are shared between
    // a process's points, sim/stages/serve); every figure of the run itself is compared.
    f.points.back().summary.iteration_graphs = 0;
  }
  const std::string path = s.path("bytes.h5");
  ::setenv("SOURCE_DATE_EPOCH", "0", 1);
  results::write_results(path, f);
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string tree_error(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    sweep::parse_scenario(text, "scenario.yaml", ".", sets);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A small serve scenario on a trace of four requests; `extra` appended.
std::string serve_scenario(const test::Scratch& s, const std::string& extra) {
  const std::string trace =
      s.file("trace.csv", "arrival_s,prompt_tokens,output_tokens\n0,40,3\n0,12,5\n0.0001,64,2\n0.0002,8,4\n");
  return "model: gpt2\nstage: serve\nobjective: time\nplacement_evaluations: 4\nsystem: " + systems() +
         "h100_sxm.yaml\ntrace: " + trace + "\n" + extra;
}

}  // namespace

TEST_CASE("serve: no `batching:`, `batching: {}` and the documented defaults written out are the same run") {
  const test::Scratch s;
  const auto points = [&](const std::string& extra) {
    return sweep::parse_scenario(serve_scenario(s, extra), "serve.yaml", ".").points;
  };
  const std::string none = results_bytes(s, points(""));
  CHECK(results_bytes(s, points("batching: {}\n")) == none);
  CHECK(results_bytes(s, points("batching: {policy: continuous, max_batch: 32, token_budget: 512}\n")) == none);
  // A default changed is another run (the comparison can fail).
  CHECK(results_bytes(s, points("batching: {max_batch: 1}\n")) != none);
}

TEST_CASE("--set key=value is exactly an edit of the file") {
  const test::Scratch s;
  const std::string base = "model: gpt2\nsequence_length: 16\nfidelity: analytical\nsystem: " + systems() + "gpu_phu.yaml\n";
  const auto edited = sweep::parse_scenario(base + "objective: energy\n", "a.yaml", ".").points;
  const sweep::Scenario set = sweep::parse_scenario(base, "b.yaml", ".", {"objective=energy"});
  REQUIRE(set.points.size() == 1);
  CHECK(set.points[0].objective == "energy");
  CHECK(results_bytes(s, set.points) == results_bytes(s, edited));
  CHECK(set.sets == std::vector<std::string>{"objective=energy"});
  // A --set of a key the file has replaces it; a dotted key makes the mappings on its way.
  CHECK(sweep::parse_scenario(base + "objective: time\n", "c.yaml", ".", {"objective=edp"}).points[0].objective == "edp");
  const auto serve = sweep::parse_scenario(serve_scenario(s, ""), "d.yaml", ".", {"batching.max_batch=3"}).points[0];
  CHECK(dynamic_cast<const serve::ContinuousBatching&>(*serve.serve.replicas[0].batching).max_batch == 3);
  // Malformed and repeated --set are errors.
  CHECK(tree_error(base, {"objective"}).find("--set 'objective': expected key=value") != std::string::npos);
  CHECK(tree_error(base, {"objective=time", "objective=edp"}).find("--set objective is given twice") != std::string::npos);
  CHECK(tree_error(base, {"objective=speed"}).find("--set objective: objective: unknown objective 'speed'") != std::string::npos);
}

TEST_CASE("--set fidelity on a serve point is the error the same key in the file is") {
  const test::Scratch s;
  const std::string in_file = tree_error(serve_scenario(s, "fidelity: event\n"));
  const std::string by_set = tree_error(serve_scenario(s, ""), {"fidelity=event"});
  const std::string what = "key 'fidelity' is set but not read by this scenario (no point has stage: prefill or decode or generate)";
  CHECK(in_file.find("scenario.yaml:7:11: fidelity: " + what) == 0);
  CHECK(by_set.find("--set fidelity: fidelity: " + what) == 0);
}

TEST_CASE("any scenario key is an axis: batching.max_batch, requests.count, replicas, system") {
  const test::Scratch s;
  const sweep::Scenario batch = sweep::parse_scenario(
      serve_scenario(s, "sweep:\n  batching.max_batch: [8, 32]\n"), "serve.yaml", ".");
  REQUIRE(batch.points.size() == 2);
  CHECK(batch.points[0].parameters[0] == std::make_pair(std::string("batching.max_batch"), std::string("8")));
  for (size_t i = 0; i < 2; ++i) {
    CHECK(dynamic_cast<const serve::ContinuousBatching&>(*batch.points[i].serve.replicas[0].batching).max_batch ==
          (i == 0 ? 8 : 32));
  }
  // One replica of each system, or two: whole values as axis values, named by their flow YAML.
  const std::string h100 = systems() + "h100_sxm.yaml", dota = systems() + "gpu_dota_b.yaml";
  std::string text = serve_scenario(s, "sweep:\n  replicas:\n    - [{system: " + h100 + "}]\n    - [{system: " + h100 +
                                           "}, {system: " + dota + ", max_batch: 4}]\n");
  text.replace(text.find("system: " + h100 + "\n"), ("system: " + h100 + "\n").size(), "");
  const sweep::Scenario replicas = sweep::parse_scenario(text, "serve.yaml", ".");
  REQUIRE(replicas.points.size() == 2);
  CHECK(replicas.points[0].serve.replicas.size() == 1);
  CHECK(replicas.points[1].serve.replicas.size() == 2);
  CHECK(replicas.points[1].parameters[0].second == "[{system: " + h100 + "}, {system: " + dota + ", max_batch: 4}]");
  CHECK(dynamic_cast<const serve::ContinuousBatching&>(*replicas.points[1].serve.replicas[1].batching).max_batch == 4);
  // Both points run: the study compares hardware.
  for (const sweep::PointSpec& p : replicas.points) {
    const results::PointResult r = sweep::run_point(p).result;
    CHECK(r.summary.status == results::Status::ok);
    CHECK(r.summary.replicas == static_cast<int64_t>(p.serve.replicas.size()));
  }
  // `system` as an axis of serve points: one replica each.
  std::string systems_axis = serve_scenario(s, "sweep:\n  system: [" + h100 + ", " + dota + "]\n");
  systems_axis.replace(systems_axis.find("system: " + h100 + "\n"), ("system: " + h100 + "\n").size(), "");
  const sweep::Scenario by_system = sweep::parse_scenario(systems_axis, "serve.yaml", ".");
  REQUIRE(by_system.points.size() == 2);
  CHECK(by_system.points[1].serve.replicas.at(0).system == dota);
  // A file value every point's axis replaces is read by none.
  CHECK(tree_error(serve_scenario(s, "batching: {max_batch: 4}\nsweep:\n  batching.max_batch: [8, 32]\n"))
            .find("key 'max_batch' is set but not read by this scenario (every point takes 'batching.max_batch' from "
                  "the sweep axis)") != std::string::npos);
}

TEST_CASE("a crossover study given to run or sweep says to use `lightcode crossover`") {
  const std::string xo = test::source_dir() + "/scenarios/crossover.yaml";
  try {
    sweep::load_scenario(xo);
    FAIL("a crossover study loaded as a sweep scenario");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("this is a crossover study (it lists `systems` and `lengths`): run it with "
                                     "`lightcode crossover " + xo + "`") != std::string::npos);
  }
}
