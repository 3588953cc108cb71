// Sweeps that never mix two scenarios: --resume takes a finished point only from a results file
// or part written for the same scenario text, command-line settings and input files (a changed
// one is named); a sweep on an output another process holds is refused; merge puts shards of
// one scenario together and serving studies of several side by side, and nothing else.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/provenance.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/stages/stage.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;
namespace fs = std::filesystem;

using test::error_of;

namespace {

// gpt2 prefill on a CPU/PHU system of the scratch folder's own (its hardware the shipped files),
// lightcode profile, analytical, three sequence lengths.
struct Study : test::Scratch {
  std::string system = file("system.yaml", "name: CPU/PHU\nunits:\n  cpu: {from: " + hardware("cpu_lightcode") +
                                               "}\n  phu: {from: " + hardware("phu_lightcode") + "}\nmemory:\n  hbm: {from: " +
                                               hardware("hbm_lightcode") + "}\n  sram: {from: " +
                                               hardware("sram_lightcode") + "}\n");
  std::string out = path("study.h5");

  static std::string hardware(const std::string& name) { return test::source_dir() + "/configs/hardware/" + name + ".yaml"; }

  std::string scenario(const std::string& objective) const {
    return file("study.yaml", "name: study\nmodel: gpt2\nsystem: system.yaml\nprofile: lightcode\nfidelity: analytical\n"
                              "objective: " + objective + "\nsweep:\n  sequence_length: [16, 24, 32]\n");
  }

  // As `lightcode sweep` does: the inputs are the files read loading and checking the scenario.
  sweep::SweepOutcome run(bool resume) const {
    const uint64_t mark = input_mark();
    const sweep::Scenario s = sweep::load_scenario(path("study.yaml"));
    sweep::validate_point_inputs(s.points);
    sweep::SweepOptions o;
    o.output = out;
    o.resume = resume;
    o.inputs = inputs_read_since(mark);
    return sweep::run_sweep(s, o);
  }

  // The part a worker of the sweep as it stands would write for its first point (as a sweep
  // killed after that point leaves it).
  void leave_part() const {
    const uint64_t mark = input_mark();
    const sweep::Scenario s = sweep::load_scenario(path("study.yaml"));
    sweep::validate_point_inputs(s.points);
    results::ResultsFile part = sweep::results_header(s, {}, inputs_read_since(mark));
    part.points.push_back(sweep::failed_point(s.points.front(), "stands in for a finished point"));
    part.points.back().summary.status = results::Status::ok;
    results::write_results(out + ".parts/p0000.h5", part);
  }
};

}  // namespace

TEST_CASE("--resume after the objective changed is refused, naming the scenario, for the results file and a part") {
  const Study st;
  const std::string scenario = st.scenario("time");
  REQUIRE(st.run(false).failed == 0);
  st.scenario("energy");
  CHECK(error_of([&] { st.run(true); }) == st.out + ": --resume: " + scenario + " changed since " + st.out +
                                                " was written; run without --resume to start over");
  // A sweep killed after its first point: only the part is there.
  fs::remove(st.out);
  st.scenario("time");
  st.leave_part();
  st.scenario("energy");
  const std::string part = st.out + ".parts/p0000.h5";
  CHECK(error_of([&] { st.run(true); }) ==
        part + ": --resume: " + scenario + " changed since the parts were written; run without --resume to start over");
  // Without --resume the sweep starts over; resuming that is fine.
  CHECK(st.run(false).ran == 3);
  const sweep::SweepOutcome again = st.run(true);
  CHECK(again.resumed == 3);
  for (const auto& p : results::read_results(st.out).points) CHECK(p.summary.objective == "energy");
}

TEST_CASE("--resume after a system file was edited is refused, naming that file") {
  const Study st;
  st.scenario("time");
  REQUIRE(st.run(false).failed == 0);
  const results::ResultsFile written = results::read_results(st.out);
  CHECK(written.scenario_name == "study");
  CHECK(written.scenario_digest.size() == 64);
  bool recorded = false;
  for (const auto& i : written.inputs) recorded = recorded || i.path == "system.yaml";
  CHECK(recorded);  // relative to the scenario's folder
  std::ofstream(st.system, std::ios::app) << "# an edit that changes no figure still changes the file\n";
  CHECK(error_of([&] { st.run(true); }) == st.out + ": --resume: input " + st.system + " changed since " + st.out +
                                                " was written; run without --resume to start over");
  fs::remove(st.out);
  st.leave_part();
  std::ofstream(st.system, std::ios::app) << "# edited again\n";
  CHECK(error_of([&] { st.run(true); }) == st.out + ".parts/p0000.h5: --resume: input " + st.system +
                                                " changed since the parts were written; run without --resume to start over");
}

TEST_CASE("provenance_change names every input that is new, gone or changed, and settings") {
  results::ResultsFile then, now;
  then.scenario_text = now.scenario_text = "name: x\n";
  then.scenario_digest = "1";
  now.scenario_digest = "2";
  then.inputs = {{"../configs/a.yaml", "aa"}, {"../configs/gone.yaml", "gg"}, {"same.yaml", "ss"}};
  now.inputs = {{"../configs/a.yaml", "ab"}, {"../configs/new.yaml", "nn"}, {"same.yaml", "ss"}};
  CHECK(sweep::provenance_change(then, now, "scenarios/x.yaml", "the parts were written") ==
        "input configs/a.yaml changed since the parts were written; "
        "input configs/gone.yaml is gone: the parts were written with it; "
        "input configs/new.yaml is new: the parts were written without it");
  now.inputs = then.inputs;
  CHECK(sweep::provenance_change(then, now, "scenarios/x.yaml", "the parts were written") ==
        "the command-line settings (--fidelity, --no-contention, --set) differ from those the parts were written with");
  now.scenario_digest = "1";
  CHECK(sweep::provenance_change(then, now, "scenarios/x.yaml", "the parts were written").empty());
  then.scenario_digest.clear();  // an older file
  CHECK(sweep::provenance_change(then, now, "scenarios/x.yaml", "x.h5 was written").find(
            "x.h5 was written without input digests") == 0);
}

TEST_CASE("the digest covers the scenario text, each setting in order and each input, not where it runs from") {
  sweep::Scenario s;
  s.file = "/a/scenarios/x.yaml";
  s.text = "name: x\n";
  const std::vector<RecordedInput> read = {{"/a/configs/h.yaml", "11"}, {"/a/scenarios/x.yaml", "ff"}};
  const results::ResultsFile h = sweep::results_header(s, {}, read);
  REQUIRE(h.inputs.size() == 1);  // the scenario file itself is its text
  CHECK(h.inputs[0].path == "../configs/h.yaml");
  sweep::Scenario moved = s;  // the whole tree elsewhere: the same digest
  moved.file = "/b/scenarios/x.yaml";
  CHECK(sweep::results_header(moved, {}, {{"/b/configs/h.yaml", "11"}}).scenario_digest == h.scenario_digest);
  CHECK(sweep::results_header(s, {}, {{"/a/configs/h.yaml", "12"}}).scenario_digest != h.scenario_digest);
  CHECK(sweep::results_header(s, {"fidelity=event"}, read).scenario_digest != h.scenario_digest);
  CHECK(sweep::results_header(s, {"a=1", "a=2"}, read).scenario_digest !=
        sweep::results_header(s, {"a=2", "a=1"}, read).scenario_digest);
  sweep::Scenario edited = s;
  edited.text = "name: x\n# edited\n";
  CHECK(sweep::results_header(edited, {}, read).scenario_digest != h.scenario_digest);
}

TEST_CASE("a sweep on an output another process holds is refused at once, its parts untouched") {
  const Study st;
  st.scenario("time");
  st.leave_part();
  const OutputLock holder(st.out, "sweep other.yaml");
  const std::string refused = error_of([&] { st.run(false); });
  INFO(refused);
  CHECK(refused.find(st.out + ": another LightCode process is writing it (pid " + std::to_string(::getpid()) + ", started ") == 0);
  CHECK(refused.find("lightcode sweep other.yaml") != std::string::npos);
  CHECK(fs::exists(st.out + ".parts/p0000.h5"));
}

namespace {

// A results file of scenario `name` whose points have `stage`, written to `path`.
results::ResultsFile study_file(const std::string& name, const std::string& stage, const std::string& system,
                                const std::string& input_digest = "aa") {
  sweep::Scenario s;
  s.name = name;
  s.file = "/studies/" + name + ".yaml";
  s.text = "name: " + name + "\nstage: " + stage + "\nreplicas: [{system: " + system + "}]\n";
  results::ResultsFile f = sweep::results_header(s, {}, {{"/configs/" + system, input_digest}});
  for (const char* id : {"p0000", "p0001"}) {
    results::PointResult p;
    p.summary.id = id;
    p.summary.stage = stage;
    p.summary.system = system;
    p.summary.parameters = {{"dispatch", id == std::string("p0000") ? "round_robin" : "prompt_length"}};
    f.points.push_back(std::move(p));
  }
  return f;
}

}  // namespace

TEST_CASE("merge: serving studies of different hardware side by side, ids prefixed, every source recorded") {
  const test::Scratch s;
  const results::ResultsFile h100 = study_file("serve_h100", "serve", "h100_sxm.yaml");
  const results::ResultsFile a100 = study_file("serve_a100", "serve", "a100_sxm.yaml");
  results::write_results(s.path("h100.h5"), h100);
  results::write_results(s.path("a100.h5"), a100);
  const results::ResultsFile merged = sweep::merge_results({s.path("h100.h5"), s.path("a100.h5")});
  REQUIRE(merged.points.size() == 4);
  CHECK(merged.points[0].summary.id == "serve_a100.p0000");
  CHECK(merged.points[1].summary.id == "serve_a100.p0001");
  CHECK(merged.points[2].summary.id == "serve_h100.p0000");
  CHECK(merged.points[2].summary.system == "h100_sxm.yaml");
  CHECK(merged.points[2].summary.parameters ==
        std::vector<std::pair<std::string, std::string>>{{"scenario", "serve_h100"}, {"dispatch", "round_robin"}});
  REQUIRE(merged.sources.size() == 2);
  CHECK(merged.sources[0].name == "serve_a100");
  CHECK(merged.sources[0].text == a100.scenario_text);
  CHECK(merged.sources[0].digest == a100.scenario_digest);
  CHECK(merged.sources[1].digest == h100.scenario_digest);
  CHECK(merged.scenario_digest == sweep::sources_digest(merged.sources));
  CHECK(merged.scenario_text.find("# merged from 2 scenarios (serve_a100, serve_h100)") == 0);
  // Written and read back, and merged again with a third study: the sources accumulate.
  results::write_results(s.path("both.h5"), merged);
  const results::ResultsFile back = results::read_results(s.path("both.h5"));
  CHECK(back.sources.size() == 2);
  CHECK(back.sources[1].text == h100.scenario_text);
  results::write_results(s.path("third.h5"), study_file("serve_h100", "serve", "h100_sxm_phu.yaml"));
  const results::ResultsFile three = sweep::merge_results({s.path("both.h5"), s.path("third.h5")});
  CHECK(three.points.size() == 6);
  REQUIRE(three.sources.size() == 3);
  CHECK(three.sources[2].name == "serve_h100-2");  // a name taken already: made unique
  CHECK(three.points[3].summary.id == "serve_h100-2.p0001");
}

TEST_CASE("merge refuses different scenarios of different stages, and shards of one scenario on other inputs") {
  const test::Scratch s;
  results::write_results(s.path("serve.h5"), study_file("serve_h100", "serve", "h100_sxm.yaml"));
  results::write_results(s.path("prefill.h5"), study_file("prefill_h100", "prefill", "h100_sxm.yaml"));
  CHECK(error_of([&] { sweep::merge_results({s.path("serve.h5"), s.path("prefill.h5")}); }) ==
        s.path("prefill.h5") + ": merge: '" + s.path("serve.h5") +
            "' (scenario 'serve_h100') has serve points and this file (scenario 'prefill_h100') prefill points: "
            "results of different scenarios merge only when every point has the same stage (shards of one scenario "
            "merge whatever their stages)");
  // The same scenario text, but its system file changed between the two runs.
  results::ResultsFile first = study_file("serve_h100", "serve", "h100_sxm.yaml", "aa");
  results::ResultsFile second = study_file("serve_h100", "serve", "h100_sxm.yaml", "ab");
  second.points.erase(second.points.begin());
  first.points.pop_back();
  results::write_results(s.path("1.h5"), first);
  results::write_results(s.path("2.h5"), second);
  CHECK(error_of([&] { sweep::merge_results({s.path("1.h5"), s.path("2.h5")}); }) ==
        s.path("2.h5") + ": merge: the same scenario as '" + s.path("1.h5") +
            "' but not the same inputs: input ../configs/h100_sxm.yaml changed since '" + s.path("1.h5") +
            "' was written (input paths are relative to the scenario's folder)");
  // Shards on the same inputs merge as one scenario, its provenance kept.
  results::write_results(s.path("3.h5"), [&] {
    results::ResultsFile f = study_file("serve_h100", "serve", "h100_sxm.yaml", "aa");
    f.points.erase(f.points.begin());
    return f;
  }());
  const results::ResultsFile merged = sweep::merge_results({s.path("3.h5"), s.path("1.h5")});
  CHECK(merged.points.size() == 2);
  CHECK(merged.points[0].summary.id == "p0000");
  CHECK(merged.scenario_digest == first.scenario_digest);
  CHECK(merged.sources.empty());
}
