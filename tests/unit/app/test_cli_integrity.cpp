// `lightcode sweep`, `run` and `merge` never mix two scenarios in one results file: a sweep
// killed and resumed after its scenario changed is refused; two writers of one output are
// refused while the first lives (and not after kill -9 of it); a FIFO or a directory in place
// of a results file is an error, never a hang; serving studies of different hardware merge.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "sim/results/hdf5_file.hpp"
#include "tests/support/files.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::slurp;
using lightcode::test::source_dir;
namespace fs = std::filesystem;

namespace {

// gpt2 prefill on the shipped lightcode CPU/PHU system, analytical, over `lengths`.
std::string study(const lightcode::test::Scratch& s, const std::string& name, const std::string& objective,
                  const std::string& lengths) {
  return s.file(name + ".yaml", "name: " + name + "\nmodel: gpt2\nsystem: " + source_dir() +
                                    "/configs/systems/lightcode/cpu_phu.yaml\nprofile: lightcode\nfidelity: analytical\n"
                                    "objective: " + objective + "\nsweep:\n  sequence_length: " + lengths + "\n");
}

// Starts `lightcode sweep <scenario> -j 1 -q --out <out>` in the background.
pid_t start_sweep(const std::string& scenario, const std::string& out) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::freopen("/dev/null", "w", stdout);
    ::freopen("/dev/null", "w", stderr);
    ::execl(lightcode::test::lightcode_binary().c_str(), "lightcode", "sweep", scenario.c_str(), "-j", "1", "-q", "--out",
            out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Waits (at most a minute) until `done` holds.
template <class Done>
bool wait_for(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return done();
}

size_t parts(const std::string& out) {
  size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out + ".parts", ec)) n += e.path().extension() == ".h5" ? 1 : 0;
  return n;
}

void kill_hard(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

constexpr int kNoHang = 60;  // seconds: far above what these take; a FIFO that blocked would not end

}  // namespace

TEST_CASE("a sweep killed, its objective changed, --resume: refused naming the scenario, without --resume all new") {
  const lightcode::test::Scratch s;
  const std::string lengths = "{start: 64, stop: 2048, step: 64}";  // 32 points
  const std::string scenario = study(s, "objective", "time", lengths);
  const std::string out = s.path("objective.h5");
  const pid_t pid = start_sweep(scenario, out);
  REQUIRE(wait_for([&] { return parts(out) >= 3; }));
  kill_hard(pid);
  study(s, "objective", "energy", lengths);
  const auto refused = run_lightcode("sweep " + scenario + " -j 2 -q --resume --out " + out);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find(".parts/p0000.h5: --resume: " + scenario +
                         " changed since the parts were written; run without --resume to start over") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  const auto fresh = run_lightcode("sweep " + scenario + " -j 2 -q --out " + out);
  CHECK(fresh.exit_code == 0);
  CHECK(fresh.out.find("32 points (32 run, 0 resumed, 0 failed)") != std::string::npos);
  for (const auto& p : lightcode::results::read_results(out).points) CHECK(p.summary.objective == "energy");
}

TEST_CASE("a second sweep or run on the same --out is refused naming the first, and after kill -9 of it one proceeds") {
  const lightcode::test::Scratch s;
  const std::string big = study(s, "big", "time", "{start: 64, stop: 4096, step: 64}");
  const std::string small = study(s, "small", "time", "[16, 24, 32]");
  const std::string out = s.path("shared.h5");
  const pid_t pid = start_sweep(big, out);
  const std::string holder = "pid " + std::to_string(pid);
  REQUIRE(wait_for([&] { return slurp(out + ".lock").find(holder) == 0 && parts(out) >= 1; }));
  const auto sweep = run_lightcode("sweep " + small + " -q --out " + out);
  CHECK(sweep.exit_code == 2);
  INFO(sweep.err);
  CHECK(sweep.err.find(out + ": another LightCode process is writing it (" + holder + ", started ") != std::string::npos);
  CHECK(sweep.err.find(": lightcode sweep " + big + "); wait for it to end, or write elsewhere") != std::string::npos);
  const auto run = run_lightcode("run " + small + " --out " + out);
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("another LightCode process is writing it (" + holder) != std::string::npos);
  CHECK(parts(out) >= 1);  // the refused ones left the first sweep's parts alone
  kill_hard(pid);
  // Its workers die with it: nothing writes into the folder the next sweep takes over.
  auto workers = [&] {
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) n += slurp(e.path().string() + "/cmdline").find(out) != std::string::npos;
    return n;
  };
  CHECK(wait_for([&] { return workers() == 0; }));
  const auto after = run_lightcode("sweep " + small + " -q --out " + out);
  CHECK(after.exit_code == 0);
  CHECK(after.out.find("3 points (3 run, 0 resumed, 0 failed)") != std::string::npos);
  CHECK(lightcode::results::read_results(out).points.size() == 3);
  CHECK_FALSE(fs::exists(out + ".lock"));
}

TEST_CASE("merge and --resume refuse a FIFO or a directory in place of a results file, without blocking") {
  const lightcode::test::Scratch s;
  const std::string scenario = study(s, "small", "time", "[16, 24]");
  const std::string good = s.path("good.h5"), fifo = s.path("fifo.h5"), dir = s.path("dir.h5");
  REQUIRE(run_lightcode("sweep " + scenario + " -q --out " + good).exit_code == 0);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_directory(dir);
  const auto merge_fifo = run_lightcode("merge " + good + " " + fifo + " -o " + s.path("m.h5"), kNoHang);
  CHECK(merge_fifo.exit_code == 2);
  CHECK(merge_fifo.err.find(fifo + ": cannot open results file: it is a FIFO, not a regular file") != std::string::npos);
  const auto merge_dir = run_lightcode("merge " + dir + " " + good + " -o " + s.path("m.h5"), kNoHang);
  CHECK(merge_dir.exit_code == 2);
  CHECK(merge_dir.err.find(dir + ": cannot open results file: it is a directory, not a regular file") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path("m.h5")));
  // Parts of an interrupted sweep: one a FIFO, then a directory.
  const std::string out = s.path("resumed.h5");
  fs::create_directories(out + ".parts");
  REQUIRE(::mkfifo((out + ".parts/p0001.h5").c_str(), 0600) == 0);
  const auto resume_fifo = run_lightcode("sweep " + scenario + " -q --resume --out " + out, kNoHang);
  CHECK(resume_fifo.exit_code == 2);
  CHECK(resume_fifo.err.find(out + ".parts/p0001.h5: cannot open part of the sweep: it is a FIFO, not a regular file") !=
        std::string::npos);
  fs::remove(out + ".parts/p0001.h5");
  fs::create_directory(out + ".parts/p0001.h5");
  const auto resume_dir = run_lightcode("sweep " + scenario + " -q --resume --out " + out, kNoHang);
  CHECK(resume_dir.exit_code == 2);
  CHECK(resume_dir.err.find(out + ".parts/p0001.h5: cannot open part of the sweep: it is a directory") != std::string::npos);
}

TEST_CASE("merge: two serving studies on different hardware side by side, and a prefill study with them refused") {
  const lightcode::test::Scratch s;
  s.file("trace.csv", "arrival_s,prompt_tokens,output_tokens\n0,16,3\n0.001,24,2\n");
  auto serving = [&](const std::string& name, const std::string& system) {
    return s.file(name + ".yaml", "name: " + name + "\nmodel: gpt2\nstage: serve\nobjective: energy\n"
                                  "placement_evaluations: 8\nreplicas:\n  - system: " + source_dir() + "/configs/systems/" +
                                      system + ".yaml\ntrace: trace.csv\nsweep:\n  dispatch: [round_robin, "
                                      "least_outstanding_tokens]\n");
  };
  REQUIRE(run_lightcode("sweep " + serving("on_h100", "h100_sxm") + " -q --out " + s.path("h100.h5")).exit_code == 0);
  REQUIRE(run_lightcode("sweep " + serving("on_a100", "a100_sxm") + " -q --out " + s.path("a100.h5")).exit_code == 0);
  const auto merged = run_lightcode("merge " + s.path("h100.h5") + " " + s.path("a100.h5") + " -o " + s.path("both.h5"));
  CHECK(merged.exit_code == 0);
  CHECK(merged.out == "merged 2 files, 4 points: " + s.path("both.h5") + "\n");
  const lightcode::results::ResultsFile both = lightcode::results::read_results(s.path("both.h5"));
  REQUIRE(both.points.size() == 4);
  CHECK(both.points[0].summary.id == "on_a100.p0000");
  CHECK(both.points[0].summary.system == "A100-SXM");
  CHECK(both.points[3].summary.id == "on_h100.p0001");
  CHECK(both.points[3].summary.system == "H100-SXM");
  REQUIRE(both.sources.size() == 2);
  CHECK(both.sources[1].text == slurp(s.path("on_h100.yaml")));
  CHECK(both.sources[1].digest == lightcode::results::read_results(s.path("h100.h5")).scenario_digest);
  REQUIRE(run_lightcode("sweep " + study(s, "prefill", "time", "[16]") + " -q --out " + s.path("prefill.h5")).exit_code == 0);
  const auto refused = run_lightcode("merge " + s.path("both.h5") + " " + s.path("prefill.h5") + " -o " + s.path("all.h5"));
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("has serve points and this file (scenario 'prefill') prefill points: results of different "
                         "scenarios merge only when every point has the same stage") != std::string::npos);
}
