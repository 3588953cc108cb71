// Inputs that once hung the command line, ended as an internal error (exit 3) or printed inf,
// each now a clean result or an error (exit 2) that names the file, line and key it is about.
// Every case edits one line of a copy of the shipped configs (configs/ copied into a scratch
// folder, so `from:` paths resolve as they do in the source tree).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "tests/support/files.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::slurp;
using lightcode::test::source_dir;
namespace fs = std::filesystem;

namespace {

// A scratch copy of configs/, edited one line at a time.
struct Configs : lightcode::test::Scratch {
  Configs() { fs::copy(source_dir() + "/configs", path("configs"), fs::copy_options::recursive); }
  // Replaces the first `from` in configs/<file> with `to`; returns the file's path.
  std::string edit(const std::string& file, const std::string& from, const std::string& to) const {
    const std::string p = path("configs/" + file);
    std::string text = slurp(p);
    const size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, file << " has no '" << from << "'");
    text.replace(at, from.size(), to);
    std::ofstream(p) << text;
    return p;
  }
  // A scenario of `body` in the scratch folder, its paths relative to it.
  std::string scenario(const std::string& body) const { return file("s.yaml", body); }
};

const std::string kPrefill = "model: gpt2\nstage: prefill\nsequence_length: 16\nfidelity: analytical\n";

// One H100 replica serving `requests` (a `requests:` generator with its rate, or a `trace:`).
std::string serve_scenario(const Configs& c, const std::string& requests) {
  return c.scenario("model: gpt2\nstage: serve\nplacement_evaluations: 4\nreplicas:\n  - system: "
                    "configs/systems/h100_sxm.yaml\n" +
                    requests);
}

}  // namespace

TEST_CASE("gamma arrivals with cv 1e-155 end, and cv 1e200 is refused with a message") {
  Configs c;
  const std::string requests =
      "arrival_rate: 10 req/s\nrequests:\n  count: 3\n  arrival: gamma\n  cv: CV\n  prompt: {distribution: fixed, value: 16}\n"
      "  output: {distribution: fixed, value: 4}\n";
  auto with_cv = [&](const std::string& cv) {
    std::string r = requests;
    r.replace(r.find("CV"), 2, cv);
    return serve_scenario(c, r);
  };
  // This looped forever: the gamma shape 1 / cv^2 overflowed to inf.
  auto r = run_lightcode("run " + with_cv("1e-155") + " --out " + c.path("a.h5"), 120);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("round_robin         3") != std::string::npos);
  r = run_lightcode("run " + with_cv("1e200") + " --out " + c.path("b.h5"), 120);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cv: must be at most 100, got '1e200' (beyond it the gaps' mean rests on draws") != std::string::npos);
  CHECK(r.err.find("NaN") == std::string::npos);
}

TEST_CASE("a request trace: header only, an arrival beyond 106 days: errors at the trace's line") {
  Configs c;
  const std::string empty = c.file("empty.csv", "arrival_s,prompt_tokens,output_tokens\n");
  auto r = run_lightcode("run " + serve_scenario(c, "trace: " + empty + "\n") + " --out " + c.path("a.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(empty + ":1: the trace has no requests") != std::string::npos);
  const std::string late = c.file("late.csv", "arrival_s,prompt_tokens,output_tokens\n0,16,4\n1e7,16,4\n");
  r = run_lightcode("run " + serve_scenario(c, "trace: " + late + "\n") + " --out " + c.path("b.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(late + ":3:1: arrival_s: '1e7': a duration of 1e+07 s exceeds the representable 106 days") !=
        std::string::npos);
}

TEST_CASE("an SLO beyond 106 days is an error at its key") {
  Configs c;
  const std::string trace = c.file("t.csv", "arrival_s,prompt_tokens,output_tokens\n0,16,4\n");
  const std::string s = serve_scenario(c, "trace: " + trace + "\nslo: {ttft: 1e30 s, tpot: 50 ms}\n");
  const auto r = run_lightcode("run " + s + " --out " + c.path("a.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(s + ":7:13: slo.ttft: a duration of 1e+30 s exceeds the representable 106 days at 1 ps") !=
        std::string::npos);
}

TEST_CASE("energies of 1e300 pJ: never an internal error, and an EDP beyond a double is an error naming it") {
  Configs c;
  c.edit("hardware/hbm3.yaml", "read_energy: 0 pJ", "read_energy: 1e300 pJ");
  // The selector's sums overflowed: "the selection problem has no allowed assignment", exit 3.
  for (const char* objective : {"time", "energy", "edp"}) {
    INFO(objective);
    const auto r = run_lightcode("run " + c.scenario(kPrefill + "system: configs/systems/h100_sxm.yaml\nobjective: " +
                                                      objective + "\n") +
                                 " --out " + c.path(std::string(objective) + ".h5"));
    INFO(r.err);
    CHECK(r.err.find("internal error") == std::string::npos);
    if (std::string(objective) == "edp") {
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("the edp of the best placement (makespan") != std::string::npos);
    } else {
      CHECK(r.exit_code == 0);  // 1.6e308 pJ in all: large, and a double
    }
  }
  // 1e305 pJ per number: one op's energy overflows, named with its unit.
  c.edit("hardware/hbm3.yaml", "read_energy: 1e300 pJ", "read_energy: 1e305 pJ");
  const auto r = run_lightcode("run " + c.scenario(kPrefill + "system: configs/systems/h100_sxm.yaml\n") + " --out " +
                               c.path("x.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("(memory) on 'hbm': an energy of inf pJ is not representable") != std::string::npos);
}

TEST_CASE("a 1e308 J/bit modulator is an error at its key in the device library, in hw show and validate-photonic") {
  Configs c;
  const std::string lib = c.edit("devices/photonic.yaml", "energy_per_bit: 450 fJ/bit  # source: LT default.yaml",
                                 "energy_per_bit: 1e308 J/bit  # source: LT default.yaml");
  const std::string at = lib + ":24:21: modulators.lt_mzm.energy_per_bit: modulator 'lt_mzm': the photonic core's "
                               "modulators power (inf W) is beyond what a double holds";
  auto r = run_lightcode("hw show " + c.path("configs/systems/gpu_dota_b.yaml"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(at) != std::string::npos);
  CHECK(r.out.find("inf") == std::string::npos);
  r = run_lightcode("validate-photonic " + c.path("configs/hardware/phu_dota_b.yaml") + " --out " + c.path("v.h5"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(at) != std::string::npos);
  CHECK_FALSE(fs::exists(c.path("v.h5")));
  // A clock that makes the peak overflow is blamed on the clock, not on a device.
  Configs d;
  const std::string phu = d.edit("hardware/phu_dota_b.yaml", "clock: 5 GHz ", "clock: 1e290 GHz ");
  r = run_lightcode("hw show " + d.path("configs/systems/gpu_dota_b.yaml"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(phu + ":15:10: units.phu.core.clock: the photonic core's") != std::string::npos);
}

TEST_CASE("a memory of 1e27 B is an error at its capacity, not a UBSan report") {
  Configs c;
  const std::string hbm = c.edit("hardware/hbm3.yaml", "capacity: 80 GB", "capacity: 1e27 B");
  const auto r = run_lightcode("hw show " + c.path("configs/systems/h100_sxm.yaml"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(hbm + ":11:11: memory.hbm.capacity: must be at most 9200 PB, got '1e27 B' (capacities are counted in "
                         "64-bit integer bytes)") != std::string::npos);
}

TEST_CASE("numbers in config files are decimal: 0x10 is an error at its key") {
  // strtod read "0x2 GHz" as 2 GHz and "0x0.b" as 0.6875.
  for (const auto& [from, to, message] : {std::tuple<const char*, const char*, const char*>{
                                              "clock: 2.0 GHz", "clock: 0x2 GHz",
                                              ":12:8: units.cpu.clock: '0x2 GHz' is not a frequency: numbers are "
                                              "decimal (no 0x)"},
                                          {"gemm_efficiency: 0.7", "gemm_efficiency: 0x0.b",
                                           ":15:18: units.cpu.gemm_efficiency: '0x0.b' is not a number (a finite "
                                           "decimal)"}}) {
    Configs c;
    const std::string cpu = c.edit("hardware/xeon_8480.yaml", from, to);
    const auto r = run_lightcode("hw show " + c.path("configs/systems/h100_sxm.yaml"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(cpu + message) != std::string::npos);
  }
}

TEST_CASE("a mistyped command exits 2 and suggests the closest") {
  auto r = run_lightcode("rn x.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("lightcode: error: unknown command 'rn' (did you mean 'run'?); commands: run, sweep,") == 0);
  r = run_lightcode("hw shw x.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'shw' (did you mean 'show'?); 'hw' takes: list, show") != std::string::npos);
  r = run_lightcode("run --no-such-option x.yaml");
  CHECK(r.exit_code == 2);
  CHECK(run_lightcode("--help").exit_code == 0);
  CHECK(run_lightcode("hw list").exit_code == 0);
}
