// The command line against what once crashed, hung, reported wrong figures or destroyed a
// file: each case is the bug's own reproduction, now a clear error (exit 2) or a clean result.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "sim/results/hdf5_file.hpp"
#include "tests/support/files.hpp"
#include "tests/support/python.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scenario_text.hpp"
#include "tests/support/scratch.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::slurp;
using lightcode::test::source_dir;
namespace fs = std::filesystem;

namespace {

// A scratch folder that also writes scenarios: gpt2 prefill on the shipped CPU/PHU system,
// lightcode profile, analytical, plus `extra` lines.
struct Scratch : lightcode::test::Scratch {
  std::string scenario(const std::string& name, const std::string& extra) const {
    return file(name, lightcode::test::scenario_text("model: gpt2\nstage: prefill\nsequence_length: 16\nsystem: " +
                                                         source_dir() +
                                                         "/configs/systems/lightcode/cpu_phu.yaml\nprofile: "
                                                         "lightcode\nfidelity: analytical\n",
                                                     extra));
  }
};

// Files whose name marks a temporary, anywhere under `dir`.
std::vector<std::string> temporaries(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp") != std::string::npos) out.push_back(e.path().string());
  }
  return out;
}

void no_crash(const lightcode::test::RunResult& r) {
  CHECK(r.err.find("internal error") == std::string::npos);
  CHECK(r.err.find("Sanitizer") == std::string::npos);
  CHECK(r.err.find("crashed") == std::string::npos);
}

}  // namespace

TEST_CASE("crossover refuses to overwrite its own scenario (`output: my` beside my.yaml)") {
  Scratch s;
  const std::string sys = source_dir() + "/configs/systems/lightcode/";
  const std::string scenario =
      s.file("my.yaml", "name: my\nmodel: gpt2\nprofile: lightcode\nsystems: [" + sys + "cpu.yaml, " + sys +
                            "gpu.yaml]\nobjectives: [time]\nlengths: {start: 1, stop: 8}\noutput: my\n");
  const std::string before = slurp(scenario);
  const auto r = run_lightcode("crossover " + scenario + " --grid 2");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("refusing to overwrite '" + scenario + "', an input of this run") != std::string::npos);
  CHECK(slurp(scenario) == before);
  CHECK_FALSE(fs::exists(s.path("my.json")));  // nothing written: checked before the search
}

TEST_CASE("--out naming a FIFO or a device is refused before any work, the path untouched") {
  Scratch s;
  const std::string scenario = s.scenario("x.yaml", "");
  const std::string fifo = s.path("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto r = run_lightcode("run " + scenario + " --out " + fifo);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(fifo + ": refusing to write an output here: it is a FIFO, not a regular file") != std::string::npos);
  CHECK(r.out.find("Makespan") == std::string::npos);  // no point ran
  struct stat st {};
  REQUIRE(::stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  r = run_lightcode("run " + scenario + " --out /dev/null");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/dev/null: refusing to write an output here: it is a character device") != std::string::npos);
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  r = run_lightcode("sweep " + scenario + " --out /dev/null -q");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("it is a character device") != std::string::npos);
}

TEST_CASE("a full disk in a sweep: a clean error in every process, no crash, no partial file") {
  Scratch s;
  const std::string scenario = s.scenario("full.yaml", "sweep:\n  sequence_length: [16, 32, 48, 64, 80, 96]\n");
  const std::string out = s.path("full.h5");
  // 16 KiB per file: every point's result file is larger (RLIMIT_FSIZE, as a full disk).
  const std::string cmd = "bash -c 'ulimit -f 16; exec " + lightcode::test::lightcode_binary() + " sweep " +
                          scenario + " -j 2 -q --out " + out + "' >" + s.path("o.txt") + " 2>" + s.path("e.txt");
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  const std::string err = slurp(s.path("e.txt"));
  INFO(err);
  CHECK(err.find("File too large") != std::string::npos);
  CHECK(err.find("Sanitizer") == std::string::npos);
  CHECK(err.find("crashed") == std::string::npos);
  CHECK(err.find("signal") == std::string::npos);
  CHECK_FALSE(fs::exists(out));                 // no partial results file
  CHECK(temporaries(s.dir).empty());            // no temporary left anywhere
}

TEST_CASE("16,777,216 tokens: an error naming the op and the time limit at both fidelities, never a figure") {
  Scratch s;
  for (const char* fidelity : {"analytical", "event"}) {
    CAPTURE(fidelity);
    const std::string scenario =
        s.file(std::string(fidelity) + ".yaml", "model: gpt2\nsequence_length: 16777216\nsystem: " + source_dir() +
                                                   "/configs/systems/lightcode/cpu_phu.yaml\nprofile: lightcode\nfidelity: " +
                                                   fidelity + "\n");
    const auto r = run_lightcode("run " + scenario + " --out " + s.path(std::string(fidelity) + ".h5"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("node 50 'transformer.h.0.attn.scores' (matmul) on 'cpu': a duration of 7.68415e+07 s exceeds "
                     "the representable 106 days at 1 ps") != std::string::npos);
    CHECK(r.out.find("9166695") == std::string::npos);  // the saturated figure once printed
    no_crash(r);
  }
}

TEST_CASE("a 1e300 PHz clock is rejected when the system loads, before any point runs") {
  Scratch s;
  const std::string sys = s.file("fast.yaml", "name: fast\nunits:\n  cpu: {from: " + source_dir() +
                                                  "/configs/hardware/cpu_seed.yaml, clock: 1e300 PHz}\nmemory:\n"
                                                  "  hbm: {from: " + source_dir() + "/configs/hardware/hbm_seed.yaml}\n"
                                                  "  sram: {from: " + source_dir() + "/configs/hardware/sram_seed.yaml}\n");
  const std::string scenario = s.file("s.yaml", "model: gpt2\nsequence_length: 16\nsystem: " + sys + "\nprofile: default\n");
  const auto r = run_lightcode("run " + scenario + " --out " + s.path("o.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("units.cpu.clock: '1e300 PHz' is too large to represent") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path("o.h5")));
}

TEST_CASE("an output name above the limit is an error (exit 2), not an internal error") {
  Scratch s;
  const std::string scenario = s.scenario("long.yaml", "name: " + std::string(300, 'n') + "\n");
  auto r = run_lightcode("run " + scenario);  // default output results/<300 characters>.h5
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("output file name is 303 bytes, above the limit of 200 (output_name_bytes)") != std::string::npos);
  r = run_lightcode("run " + s.scenario("short.yaml", "") + " --out " + s.path(std::string(300, 'o') + ".h5"));
  CHECK(r.exit_code == 2);
  no_crash(r);
}

TEST_CASE("a typo in a system file is reported once, before the sweep starts") {
  Scratch s;
  const std::string bad = s.file("bad.yaml", "name: bad\nunits:\n  cpu: {from: " + source_dir() +
                                                 "/configs/hardware/cpu_lightcode.yaml, clokc: 3 GHz}\nmemory: {}\n");
  const std::string scenario =
      s.file("sw.yaml", "model: gpt2\nsystem: " + bad +
                            "\nprofile: lightcode\nfidelity: analytical\nsweep:\n  sequence_length: [16, 32, 48, 64]\n");
  const auto r = run_lightcode("sweep " + scenario + " -j 2 --out " + s.path("o.h5"));
  CHECK(r.exit_code == 2);
  const size_t first = r.err.find("unknown key 'clokc'");
  CHECK(first != std::string::npos);
  CHECK(r.err.find("unknown key 'clokc'", first + 1) == std::string::npos);
  CHECK(r.err.find("[1/") == std::string::npos);  // no point started
  CHECK_FALSE(fs::exists(s.path("o.h5.parts")));
}

TEST_CASE("--vcd at analytical fidelity is an error, not silently ignored") {
  Scratch s;
  const auto r = run_lightcode("run " + s.scenario("a.yaml", "") + " --vcd " + s.path("w.vcd") + " --out " + s.path("o.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--vcd records the event engine, but point p0000 (stage prefill) runs at analytical fidelity (--fidelity event") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path("w.vcd")));
}

TEST_CASE("SIGTERM during a sweep: workers stop, no temporary is left, --resume completes") {
  Scratch s;
  std::string lengths;
  for (int l = 16; l <= 16 * 40; l += 16) lengths += (lengths.empty() ? "" : ", ") + std::to_string(l);
  const std::string scenario = s.scenario("term.yaml", "sweep:\n  sequence_length: [" + lengths + "]\n");
  const std::string out = s.path("term.h5");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::freopen("/dev/null", "w", stdout);
    ::freopen("/dev/null", "w", stderr);
    ::execl(lightcode::test::lightcode_binary().c_str(), "lightcode", "sweep", scenario.c_str(), "-j", "2", "-q", "--out",
            out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait for a few finished points, then terminate the sweep (not its workers).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  auto parts = [&] {
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out + ".parts", ec)) n += e.path().extension() == ".h5" ? 1 : 0;
    return n;
  };
  while (parts() < 3 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(parts() >= 3);
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  // The sweep passed the signal on: its workers (forks with its command line) end promptly.
  auto workers = [&] {
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
      if (slurp(e.path().string() + "/cmdline").find(out) != std::string::npos) ++n;
    }
    return n;
  };
  const auto stop_by = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (workers() > 0 && std::chrono::steady_clock::now() < stop_by) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(workers() == 0);
  const size_t after = parts();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(parts() == after);
  CHECK(temporaries(s.dir).empty());  // none left a temporary
  CHECK_FALSE(fs::exists(out));
  const auto r = run_lightcode("sweep " + scenario + " -j 2 -q --resume --out " + out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("40 points (") != std::string::npos);
  CHECK(temporaries(s.dir).empty());
}

TEST_CASE("the console table shows the objective and every swept parameter") {
  Scratch s;
  const auto r = run_lightcode("run " + s.scenario("t.yaml", "sweep:\n  objective: [time, energy]\n  phu.cores: [1, 4]\n") +
                               " --out " + s.path("t.h5"));
  REQUIRE(r.exit_code == 0);
  const std::string heading = r.out.substr(0, r.out.find('\n'));
  CHECK(heading.find("Hardware  moc_sequence_length[tok]  objective  phu.cores  Makespan[s]") == 0);
  CHECK(r.out.find("energy") != std::string::npos);
}

TEST_CASE("results store numeric parameters as numbers (h5py sees int64 and float64)") {
  lightcode::test::require_h5py();  // skipped (exit 77) without h5py
  Scratch s;
  const std::string out = s.path("n.h5");
  const auto r = run_lightcode("run " + s.scenario("n.yaml", "sweep:\n  phu.cores: [1, 4]\n  cpu.clock: ['3 GHz']\n") +
                               " --out " + out);
  REQUIRE(r.exit_code == 0);
  const std::string py = lightcode::test::python() + " -c \"import h5py; f = h5py.File('" + out +
                         "', 'r'); t = f['summary'].dtype; a = f['points/p0001'].attrs; "
                         "print(t['param.phu.cores'], t['param.cpu.clock'].kind, type(a['phu.cores']).__name__, "
                         "a['phu.cores'], f.attrs['format_version'])\" 2>&1";
  FILE* pipe = ::popen(py.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[256] = {0};
  const bool got = std::fgets(buf, sizeof buf, pipe) != nullptr;
  const int status = ::pclose(pipe);
  INFO(buf);
  CHECK(got);
  CHECK(status == 0);
  CHECK(std::string(buf) == "int64 O int64 4 " + std::to_string(lightcode::results::kResultsFormatVersion) + "\n");
}

TEST_CASE("trace link tracks never hold overlapping slices") {
  Scratch s;
  const std::string trace = s.path("t.json");
  const std::string scenario = s.file("e.yaml", "model: gpt2\nsequence_length: 32\nsystem: " + source_dir() +
                                                    "/configs/systems/cpu_phu.yaml\nprofile: default\n");
  for (const char* contention : {"", " --no-contention"}) {
    CAPTURE(contention);
    const auto r = run_lightcode("run " + scenario + contention + " --trace " + trace + " --out " + s.path("e.h5"));
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(slurp(trace));
    std::map<int, std::vector<std::pair<double, double>>> tracks;  // links: pid 2
    for (const auto& e : j["traceEvents"]) {
      if (e["ph"] == "X" && e["pid"] == 2) tracks[e["tid"].get<int>()].push_back({e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
    }
    CHECK(!tracks.empty());
    size_t overlaps = 0;
    for (auto& [tid, slices] : tracks) {
      std::sort(slices.begin(), slices.end());
      for (size_t i = 1; i < slices.size(); ++i) overlaps += slices[i].first < slices[i - 1].second - 1e-9 ? 1 : 0;
    }
    CHECK(overlaps == 0);
  }
}
