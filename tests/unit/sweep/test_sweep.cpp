// Sweeps: worker processes, failures recorded, resume after a crash or a kill, shards that
// merge into the unsharded file, and generation.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "sim/core/error.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/stages/stage.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/point.hpp"
#include "tests/support/scenario_text.hpp"
#include "tests/support/python.hpp"
#include "tests/support/run.hpp"

using namespace lightcode;
namespace fs = std::filesystem;

namespace {

std::string temp(const std::string& stem) { return "/tmp/lightcode_sweep_" + stem + "_" + std::to_string(::getpid()); }

std::string scenario_file(const std::string& stem, const std::string& sweep_body, const std::string& extra = "") {
  const std::string path = temp(stem) + ".yaml";
  std::ofstream(path) << test::scenario_text("model: gpt2\nsequence_length: 32\nsystem: " + test::source_dir() +
                                                 "/configs/systems/lightcode/cpu_phu.yaml\nprofile: lightcode\n"
                                                 "fidelity: analytical\n",
                                             extra + "sweep:\n" + sweep_body);
  return path;
}

sweep::SweepOutcome sweep_file(const std::string& scenario, const std::string& out, int k = 1, int n = 1, bool resume = false) {
  sweep::SweepOptions o;
  o.jobs = 2;
  o.output = out;
  o.shard_index = k;
  o.shard_count = n;
  o.resume = resume;
  return sweep::run_sweep(sweep::load_scenario(scenario), o);
}

}  // namespace

TEST_CASE("a sweep of 3 axes gives the product of points, each group's parameters as attributes") {
  const std::string s = scenario_file("three", "  sequence_length: [16, 32]\n  objective: [time, energy]\n  phu.cores: [1, 2, 4]\n");
  const std::string out = temp("three") + ".h5";
  const auto r = sweep_file(s, out);
  CHECK(r.points == 12);
  CHECK(r.failed == 0);
  const results::ResultsFile f = results::read_results(out);
  REQUIRE(f.points.size() == 12);
  CHECK(f.points[5].summary.parameters ==
        std::vector<std::pair<std::string, std::string>>{{"sequence_length", "16"}, {"objective", "energy"}, {"phu.cores", "4"}});
  CHECK(!fs::exists(out + ".parts"));
  std::remove(s.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a sweep's parameters are HDF5 attributes of each point's group, as h5py sees them") {
  test::require_h5py();  // skipped (exit 77) without h5py
  const std::string s = scenario_file("attrs", "  sequence_length: [16, 32]\n  objective: [time, energy]\n  phu.cores: [1, 2, 4]\n");
  const std::string out = temp("attrs") + ".h5";
  REQUIRE(sweep_file(s, out).failed == 0);
  const std::string cmd = test::python() + " -c \"import h5py; g = h5py.File('" + out +
                          "', 'r')['points/p0005']; print(g.attrs['phu.cores'], g.attrs['objective'], g.attrs['status'])\" 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[256] = {0};
  const bool got = std::fgets(buf, sizeof buf, pipe) != nullptr;
  const int status = ::pclose(pipe);
  INFO(buf);
  CHECK(got);
  CHECK(status == 0);
  CHECK(std::string(buf) == "4 energy ok\n");
  std::remove(s.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a point with an impossible system is reported failed, the others succeed") {
  const std::string sys = test::source_dir() + "/configs/systems/";
  const std::string phu_only = temp("phu_only") + ".yaml";
  std::ofstream(phu_only) << "name: PHU only\nunits:\n  phu: {from: " << sys << "../hardware/phu_lightcode.yaml}\nmemory:\n"
                          << "  hbm: {from: " << sys << "../hardware/hbm_seed.yaml}\n  sram: {from: " << sys
                          << "../hardware/sram_seed.yaml}\n";
  const std::string s = scenario_file("impossible", "  system: [" + sys + "lightcode/cpu.yaml, " + phu_only + ", " + sys + "lightcode/cpu_phu.yaml]\n");
  const std::string out = temp("impossible") + ".h5";
  const auto r = sweep_file(s, out);
  CHECK(r.failed == 1);
  const results::ResultsFile f = results::read_results(out);
  REQUIRE(f.points.size() == 3);
  CHECK(f.points[0].summary.status == results::Status::ok);
  CHECK(f.points[1].summary.status == results::Status::failed);
  CHECK(f.points[1].summary.error.find("cannot run on any unit of system 'PHU only'") != std::string::npos);
  CHECK(f.points[2].summary.status == results::Status::ok);
  for (const auto& p : {s, phu_only, out}) std::remove(p.c_str());
}

TEST_CASE("shard 1/2 and 2/2 merged equal the unsharded sweep, point for point") {
  const std::string s = scenario_file("shard", "  sequence_length: [16, 32, 48]\n  phu.multiplex: [8, 20]\n");
  const std::string all = temp("all") + ".h5", a = temp("a") + ".h5", b = temp("b") + ".h5";
  sweep_file(s, all);
  CHECK(sweep_file(s, a, 1, 2).points == 3);
  CHECK(sweep_file(s, b, 2, 2).points == 3);
  const results::ResultsFile merged = sweep::merge_results({b, a});
  const results::ResultsFile whole = results::read_results(all);
  REQUIRE(merged.points.size() == whole.points.size());
  CHECK(merged.scenario_text == whole.scenario_text);
  for (size_t i = 0; i < whole.points.size(); ++i) {
    const auto& x = merged.points[i];
    const auto& y = whole.points[i];
    CHECK(x.summary.id == y.summary.id);
    CHECK(x.summary.parameters == y.summary.parameters);
    CHECK(x.summary.makespan == y.summary.makespan);
    CHECK(x.summary.energy_pj == y.summary.energy_pj);
    REQUIRE(x.tasks.size() == y.tasks.size());
    for (size_t t = 0; t < x.tasks.size(); ++t) {
      CHECK(x.tasks[t].start == y.tasks[t].start);
      CHECK(x.tasks[t].name == y.tasks[t].name);
    }
  }
  // Merged, rewritten with the same creation stamp, the files are byte-identical.
  ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  const std::string m1 = temp("m1") + ".h5", m2 = temp("m2") + ".h5";
  results::write_results(m1, merged);
  results::write_results(m2, whole);
  std::ifstream f1(m1, std::ios::binary), f2(m2, std::ios::binary);
  const std::string b1((std::istreambuf_iterator<char>(f1)), {}), b2((std::istreambuf_iterator<char>(f2)), {});
  CHECK(b1 == b2);
  ::unsetenv("SOURCE_DATE_EPOCH");
  for (const auto& p : {s, all, a, b, m1, m2}) std::remove(p.c_str());
}

TEST_CASE("a crashing worker is recorded, and --resume runs only what is not done") {
  const std::string s = scenario_file("crash", "  sequence_length: [16, 24, 32, 40]\n");
  const std::string out = temp("crash") + ".h5";
  ::setenv("LIGHTCODE_FAULT_CRASH_POINT", "p0002", 1);
  const auto first = sweep_file(s, out);
  ::unsetenv("LIGHTCODE_FAULT_CRASH_POINT");
  CHECK(first.failed == 1);
  results::ResultsFile f = results::read_results(out);
  REQUIRE(f.points.size() == 4);
  CHECK(f.points[2].summary.status == results::Status::failed);
  CHECK(f.points[2].summary.error.find("worker crashed (signal 9") != std::string::npos);
  const auto second = sweep_file(s, out, 1, 1, true);
  CHECK(second.resumed == 3);
  CHECK(second.ran == 1);
  CHECK(second.failed == 0);
  f = results::read_results(out);
  for (const auto& p : f.points) CHECK(p.summary.status == results::Status::ok);
  std::remove(s.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a sweep killed mid-way loses no finished point, and --resume completes it") {
  // Enough points that the sweep is still running when the first ones are written.
  const std::string s = scenario_file("kill", "  sequence_length: {start: 64, stop: 2048, step: 64}\n  objective: [time, energy]\n",
                                      "");
  const std::string out = temp("kill") + ".h5";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(test::lightcode_binary().c_str(), "lightcode", "sweep", s.c_str(), "-j", "1", "-q", "--out", out.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until a few points are written, then kill the sweep (and so its worker) outright.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  size_t parts = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    parts = 0;
    if (fs::is_directory(out + ".parts")) {
      for (const auto& e : fs::directory_iterator(out + ".parts")) parts += e.path().extension() == ".h5";
    }
    if (parts >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(parts >= 3);
  const auto r = lightcode::test::run_lightcode("sweep " + s + " -j 2 --resume --out " + out);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("resume: ") != std::string::npos);
  const results::ResultsFile f = results::read_results(out);
  CHECK(f.points.size() == 64);
  for (const auto& p : f.points) CHECK(p.summary.status == results::Status::ok);
  std::remove(s.c_str());
  std::remove(out.c_str());
}

TEST_CASE("generation: time to first token, per-token latency and energy per token") {
  const std::string s = temp("generate") + ".yaml";
  std::ofstream(s) << "model: gpt2\nstage: generate\nsequence_length: 64\nnew_tokens: 8\nsystem: " << test::source_dir()
                   << "/configs/systems/cpu.yaml\nprofile: default\nfidelity: analytical\n";
  const std::string out = temp("generate") + ".h5";
  sweep::SweepOptions o;
  o.output = out;
  const auto r = sweep::run_sweep(sweep::load_scenario(s), o);
  REQUIRE(r.summaries.size() == 1);
  const auto& g = r.summaries[0];
  CHECK(g.status == results::Status::ok);
  CHECK(g.new_tokens == 8);
  CHECK(g.ttft_s > 0.0);
  CHECK(g.tpot_s > 0.0);
  CHECK(g.tpot_s < g.ttft_s);  // one token against the cache costs less than 64 at once
  CHECK(g.makespan_s == doctest::Approx(g.ttft_s + 7 * g.tpot_s).epsilon(1e-9));
  CHECK(g.energy_per_token_pj == doctest::Approx(g.energy_pj / 8).epsilon(1e-12));
  std::remove(s.c_str());
  std::remove(out.c_str());
}

TEST_CASE("every input of a scenario is checked before the first point, each problem once") {
  const std::string bad = temp("typo") + "_system.yaml";
  std::ofstream(bad) << "name: Typo\nunits:\n  cpu: {from: " << test::source_dir()
                     << "/configs/hardware/cpu_lightcode.yaml, cores: 4, clokc: 3 GHz}\nmemory: {}\n";
  const std::string s = scenario_file("typo", "  system: [" + bad + "]\n  sequence_length: [16, 32, 48]\n"
                                              "  model: [gpt2, no-such-model]\n");
  try {
    sweep::validate_point_inputs(sweep::load_scenario(s).points);
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("2 problems in the scenario's inputs:") == 0);
    // The typo once, although 6 points use the system; the unknown model once.
    const size_t first = msg.find("unknown key 'clokc'");
    CHECK(first != std::string::npos);
    CHECK(msg.find("unknown key 'clokc'", first + 1) == std::string::npos);
    CHECK(msg.find("unknown built-in model 'no-such-model'") != std::string::npos);
  }
  std::remove(bad.c_str());
  std::remove(s.c_str());
}

TEST_CASE("merge keeps point order past 10,000 points (p10000 after p9999)") {
  results::ResultsFile a, b;
  a.tool_version = b.tool_version = "lightcode test";
  a.scenario_text = b.scenario_text = "name: many\n";
  for (int i = 0; i < 10003; ++i) {
    results::PointResult p;
    char id[16];
    std::snprintf(id, sizeof id, "p%04d", i);
    p.summary.id = id;
    p.summary.sequence_length = i;
    (i % 2 ? a : b).points.push_back(std::move(p));
  }
  const std::string fa = temp("many_a") + ".h5", fb = temp("many_b") + ".h5";
  results::write_results(fa, a);
  results::write_results(fb, b);
  const results::ResultsFile merged = sweep::merge_results({fa, fb});
  REQUIRE(merged.points.size() == 10003);
  bool ordered = true;
  for (int i = 0; i < 10003; ++i) ordered = ordered && merged.points[static_cast<size_t>(i)].summary.sequence_length == i;
  CHECK(ordered);
  CHECK(merged.points[9999].summary.id == "p9999");
  CHECK(merged.points[10000].summary.id == "p10000");
  std::remove(fa.c_str());
  std::remove(fb.c_str());
}

TEST_CASE("default-profile PHU scaling: llama-2-7b keeps speeding up to 64 cores (the cores share each product)") {
  const sweep::Scenario s = sweep::load_scenario(test::source_dir() + "/scenarios/phu_scaling_default.yaml");
  REQUIRE(s.points.size() == 7);  // 1, 2, 4, ..., 64 cores
  double previous = 0.0;
  for (const sweep::PointSpec& p : s.points) {
    CAPTURE(p.id);
    const double makespan = sweep::run_point(p).result.summary.makespan_s;
    if (previous > 0.0) CHECK(makespan < previous);
    previous = makespan;
  }
}

TEST_CASE("precision: a product needing more bits than DOTA-B's 4 is no photonic candidate, and the summary counts it") {
  sweep::PointSpec p = test::analytical_point("gpt2", 32, "gpu_dota_b.yaml");
  p.objective = "energy";
  const results::PointSummary free = sweep::run_point(p).result.summary;
  REQUIRE(free.photonic_possible > 0);
  CHECK(free.photonic_refused_precision == 0);
  CHECK(free.precision_bits == 0);

  p.precision = 8;
  const results::PointResult strict = sweep::run_point(p).result;
  CHECK(strict.summary.precision_bits == 8);
  CHECK(strict.summary.photonic_possible == 0);
  CHECK(strict.summary.photonic_selected == 0);
  CHECK(strict.summary.photonic_refused_precision == free.photonic_possible);
  const std::string details = results::format_point_details(strict);
  CHECK(details.find("precision 8 bits on every matrix product") != std::string::npos);
  CHECK(details.find(std::to_string(free.photonic_possible) +
                     " matrix products need more bits (8, the scenario's precision) than the photonic unit "
                     "computes at: not candidates there") != std::string::npos);
  CHECK(results::format_seed_table({strict.summary}).find("note: p0: " + std::to_string(free.photonic_possible) +
                                                           " matrix products need more bits") != std::string::npos);

  p.precision = 4;  // DOTA-B's own bits: the same placement and figures as no setting
  const results::PointSummary own = sweep::run_point(p).result.summary;
  CHECK(own.photonic_possible == free.photonic_possible);
  CHECK(own.photonic_selected == free.photonic_selected);
  CHECK(own.energy_pj == free.energy_pj);
  CHECK(own.makespan == free.makespan);
}

TEST_CASE("scenarios/photonic_precision.yaml: DOTA-B 8-bit at 4 bits is charged as DOTA-B 4-bit, 8 bits refused on 4") {
  const sweep::Scenario s = sweep::load_scenario(test::source_dir() + "/scenarios/photonic_precision.yaml");
  REQUIRE(s.points.size() == 4);  // core 4 or 8 bits x precision 4 or 8
  std::vector<results::PointSummary> r;
  for (const sweep::PointSpec& p : s.points) r.push_back(sweep::run_point(p).result.summary);
  // The 4-bit core at its own precision: every product on the PHU.
  CHECK(r[0].photonic_possible > 0);
  CHECK(r[0].photonic_refused_precision == 0);
  // 8-bit products on the 4-bit core: none is a candidate, each counted as refused.
  CHECK(r[1].photonic_possible == 0);
  CHECK(r[1].photonic_refused_precision == r[0].photonic_possible);
  // The 8-bit core running 4-bit products charges what the 4-bit core does (laser margin,
  // converters and operand traffic at 4 bits, through expansion into 2-D products) ...
  CHECK(r[2].photonic_selected == r[0].photonic_selected);
  CHECK(r[2].makespan == r[0].makespan);
  CHECK(r[2].energy_pj == doctest::Approx(r[0].energy_pj).epsilon(1e-12));
  // ... and at 8 bits more.
  CHECK(r[3].energy_pj > r[2].energy_pj);
}

TEST_CASE("a model whose weights do not fit the device's memory is an error naming the bytes needed and held") {
  // llama-2-70b in float16: 138 GB of parameters (with its rotary tables for 128 tokens), on one
  // H100 with 80 GB of HBM3.
  sweep::PointSpec p = test::analytical_point("llama-2-70b", 128, "h100_sxm.yaml");
  try {
    sweep::run_point(p);
    FAIL("llama-2-70b ran on one 80 GB H100");
  } catch (const Error& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("llama-2-70b does not fit system 'H100-SXM': its parameters take 137953986140 B (138 GB)") !=
          std::string::npos);
    CHECK(msg.find("but 'hbm' holds 80000000000 B (80 GB)") != std::string::npos);
  }
  p.model = "llama-2-13b";  // 26 GB: fits
  CHECK(sweep::run_point(p).result.summary.status == results::Status::ok);
}
