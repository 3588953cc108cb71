// `lightcode run` at event fidelity: worker processes, the Perfetto trace, the VCD waveform,
// both makespans in the results, and no SystemC banner in the output.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/support/files.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scenario_text.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::slurp;
using lightcode::test::source_dir;

namespace {

std::string event_temp(const std::string& stem) { return "/tmp/lightcode_event_" + stem + "_" + std::to_string(::getpid()); }

std::string scenario(const std::string& stem, const std::string& extra = "") {
  const std::string path = event_temp(stem) + ".yaml";
  std::ofstream(path) << lightcode::test::scenario_text(
      "model: gpt2\nsequence_length: 32\nsystem: " + source_dir() + "/configs/systems/cpu_phu.yaml\nprofile: default\n",
      extra);
  return path;
}

}  // namespace

TEST_CASE("event fidelity is the default, and the output has no SystemC banner") {
  const std::string s = scenario("banner");
  const auto r = run_lightcode("run " + s + " --out " + event_temp("banner") + ".h5 --details");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("fidelity event") != std::string::npos);
  CHECK(r.out.find("analytical") != std::string::npos);  // both makespans are reported
  for (const std::string& text : {r.out, r.err}) {
    CHECK(text.find("SystemC") == std::string::npos);
    CHECK(text.find("Copyright") == std::string::npos);
  }
  std::remove(s.c_str());
  std::remove((event_temp("banner") + ".h5").c_str());
}

TEST_CASE("--trace writes a Perfetto / Chrome trace: one track per unit, slices for tasks and transfers") {
  const std::string s = scenario("trace");
  const std::string trace = event_temp("trace") + ".json";
  const auto r = run_lightcode("run " + s + " --out " + event_temp("trace") + ".h5 --trace " + trace);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(trace));
  REQUIRE(j.contains("traceEvents"));
  int slices = 0, transfers = 0, tracks = 0;
  for (const auto& e : j["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    if (e["ph"] == "X") {
      CHECK(e.contains("ts"));
      CHECK(e.contains("dur"));
      CHECK(e.contains("tid"));
      CHECK(e["dur"].get<double>() >= 0.0);
      ++slices;
      transfers += e["cat"] == "transfer";
    } else if (e["ph"] == "M" && e["name"] == "thread_name") {
      ++tracks;
    }
  }
  CHECK(slices > 500);
  CHECK(transfers > 0);
  CHECK(tracks >= 4);  // cpu0, phu0, hbm0, sram0 and link channels
  std::remove(s.c_str());
  std::remove(trace.c_str());
  std::remove((event_temp("trace") + ".h5").c_str());
}

TEST_CASE("--vcd writes the units' busy signals as a VCD waveform") {
  const std::string s = scenario("vcd");
  const std::string vcd = event_temp("vcd") + ".vcd";
  const auto r = run_lightcode("run " + s + " --out " + event_temp("vcd") + ".h5 --vcd " + vcd);
  REQUIRE(r.exit_code == 0);
  const std::string text = slurp(vcd);
  CHECK(text.find("$timescale") != std::string::npos);
  CHECK(text.find("cpu0") != std::string::npos);
  CHECK(text.find("phu0") != std::string::npos);
  CHECK(text.find("$enddefinitions") != std::string::npos);
  std::remove(s.c_str());
  std::remove(vcd.c_str());
  std::remove((event_temp("vcd") + ".h5").c_str());
}

TEST_CASE("several event points run in worker processes, one per point") {
  const std::string s = scenario("sweep", "sweep:\n  sequence_length: [16, 32, 48]\n");
  const auto r = run_lightcode("run " + s + " --out " + event_temp("sweep") + ".h5");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("CPU/PHU                         16") != std::string::npos);
  CHECK(r.out.find("CPU/PHU                         48") != std::string::npos);
  std::remove(s.c_str());
  std::remove((event_temp("sweep") + ".h5").c_str());
}

TEST_CASE("a generate scenario at event fidelity: TTFT TPOT and energy per token on the console and every step in the trace") {
  const std::string s = scenario("generate", "stage: generate\nnew_tokens: 3\n");
  const std::string trace = event_temp("generate") + ".json";
  const std::string vcd = event_temp("generate") + ".vcd";
  const auto r = run_lightcode("run " + s + " --out " + event_temp("generate") + ".h5 --trace " + trace + " --vcd " + vcd +
                               " --details");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* heading : {"TTFT[s]", "TPOT[s]", "energy_per_token[pj]"}) CHECK(r.out.find(heading) != std::string::npos);
  CHECK(r.out.find("fidelity event") != std::string::npos);
  CHECK(r.out.find("generation: 3 tokens, time to first token ") != std::string::npos);
  // The trace holds the slices of all three steps (one worker process ran them all).
  const auto j = nlohmann::json::parse(slurp(trace));
  std::set<int> steps;
  int transfers = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    if (e["cat"] == "transfer") ++transfers;
    if (e.contains("args") && e["args"].contains("step")) steps.insert(e["args"]["step"].get<int>());
  }
  CHECK(steps == std::set<int>{0, 1, 2});
  CHECK(transfers > 0);
  CHECK(slurp(vcd).find("$enddefinitions") != std::string::npos);
  for (const std::string& f : {s, trace, vcd, event_temp("generate") + ".h5"}) std::remove(f.c_str());
}
