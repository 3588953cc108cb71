// `lightcode hw list`, `hw show` and `calibrate` as a user runs them.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/support/run.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::source_dir;

TEST_CASE("lightcode list prints every registry: families, profiles, schedulers, objectives, fusion rules") {
  const auto r = run_lightcode("list");
  REQUIRE(r.exit_code == 0);
  for (const char* s : {"hardware families", "profiles", "scheduling policies", "objectives", "  list ",
                        "  lightcode ", "  edp ", "tensor_core", "fusion rules", "  attention "}) {
    CAPTURE(s);
    CHECK(r.out.find(s) != std::string::npos);
  }
  const auto schedulers = run_lightcode("list schedulers");
  REQUIRE(schedulers.exit_code == 0);
  CHECK(schedulers.out.rfind("list ", 0) == 0);
  CHECK(schedulers.out.find("\nlightcode ") != std::string::npos);
  CHECK(schedulers.out.find("tensor_core") == std::string::npos);
  const auto bad = run_lightcode("list gadgets");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'gadgets' is not one of families, profiles, schedulers, objectives, fusion") != std::string::npos);
  const auto fusion = run_lightcode("list fusion");
  REQUIRE(fusion.exit_code == 0);
  for (const char* rule : {"gemm_epilogue ", "horizontal_gemm ", "norm ", "rope ", "activation ", "attention "}) {
    const bool listed = fusion.out.find(std::string("\n") + rule) != std::string::npos || fusion.out.rfind(rule, 0) == 0;
    CHECK(listed);
  }
}

TEST_CASE("hw list prints every family and its algorithms") {
  const auto r = run_lightcode("hw list");
  REQUIRE(r.exit_code == 0);
  for (const char* s : {"cpu", "gpu", "phu", "memory", "tensor_core", "task_parallel"}) {
    CAPTURE(s);
    CHECK(r.out.find(s) != std::string::npos);
  }
}

TEST_CASE("hw show prints derived peaks and the resolved spec") {
  const auto r = run_lightcode("hw show " + source_dir() + "/configs/systems/lightcode/gpu_phu.yaml --profile lightcode");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("SMs            144 (8 GPCs x 9 TPCs x 2 SMs)") != std::string::npos);
  CHECK(r.out.find("tensor float32  494.7 TFLOP/s") != std::string::npos);
  CHECK(r.out.find("photonic MAC/s 194 GMAC/s (1 cores x 20 wavelengths x 9.7 GHz)") != std::string::npos);
  // Every key of the family's table, with its value or default and its meaning.
  CHECK(r.out.find("parameters") != std::string::npos);
  CHECK(r.out.find("multiplex       20  # WDM wavelengths per core") != std::string::npos);
  CHECK(r.out.find("static_power    0 W (default)  # idle or busy") != std::string::npos);
  const auto sxm = run_lightcode("hw show " + source_dir() + "/configs/systems/h100_sxm_phu.yaml");
  REQUIRE(sxm.exit_code == 0);
  CHECK(sxm.out.find("tensor bfloat16 989.4 TFLOP/s") != std::string::npos);
  CHECK(sxm.out.find("HBM            3.35 TB/s") != std::string::npos);
}

TEST_CASE("hw show on a bad system file names the file") {
  const auto r = run_lightcode("hw show /nonexistent/system.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/nonexistent/system.yaml") != std::string::npos);
}

TEST_CASE("hw show given a hardware file says it takes a system and names one that uses the file") {
  const auto r = run_lightcode("hw show " + source_dir() + "/configs/hardware/phu_dota_b.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("phu_dota_b.yaml:6:9: family: this is a hardware file (family: phu), not a system file; a system "
                   "file lists its compute units under `units:`") != std::string::npos);
  CHECK(r.err.find("see " + source_dir() + "/configs/systems/cpu_dota_b.yaml, which uses this one") !=
        std::string::npos);
}

TEST_CASE("every example command line `hw show --help` prints runs, from the repository root") {
  const auto help = run_lightcode("hw show --help");
  REQUIRE(help.exit_code == 0);
  std::istringstream lines(help.out);
  int examples = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::string prefix = "  lightcode ";
    if (line.rfind(prefix, 0) != 0) continue;
    // Its relative paths are the repository's: run it with the paths made absolute.
    std::string args = line.substr(prefix.size());
    for (size_t at = args.find("configs/"); at != std::string::npos; at = args.find("configs/", at + 1)) {
      if (at > 0 && args[at - 1] != ' ') continue;
      args.insert(at, source_dir() + "/");
      at += source_dir().size() + 1;
    }
    CAPTURE(line);
    const auto r = run_lightcode(args);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("system   ") == 0);
    ++examples;
  }
  CHECK(examples >= 2);
}

TEST_CASE("a scenario's systems made for another profile: the error says so and names the counterparts") {
  // The seed table uses the lightcode profile's systems; under the default profile each names
  // its default counterpart.
  const auto r = run_lightcode("run " + source_dir() + "/scenarios/seed_table.yaml --profile default");
  CHECK(r.exit_code == 2);
  for (const char* name : {"cpu", "cpu_phu", "gpu", "gpu_phu"}) {
    CAPTURE(name);
    const std::string file = source_dir() + "/configs/systems/lightcode/" + name + ".yaml";
    CHECK(r.err.find(file + ": this system file is made for profile 'lightcode' (it loads under that profile, not "
                            "under 'default' used here): for profile 'default' use " + source_dir() +
                     "/configs/systems/" + name + ".yaml, the same system made for it; or run profile 'lightcode'") !=
          std::string::npos);
  }
  CHECK(r.err.find("remove it") == std::string::npos);
  // The reverse: a default-profile system under the lightcode profile names the lightcode one.
  const auto back = run_lightcode("hw show " + source_dir() + "/configs/systems/cpu_phu.yaml --profile lightcode");
  CHECK(back.exit_code == 2);
  CHECK(back.err.find("cpu_phu.yaml: this system file is made for profile 'default'") != std::string::npos);
  CHECK(back.err.find("for profile 'lightcode' use " + source_dir() + "/configs/systems/lightcode/cpu_phu.yaml, the "
                      "same system made for it; or run profile 'default'") != std::string::npos);
}

TEST_CASE("calibrate fits the measured timings and writes a loadable CPU spec") {
  const std::string csv = lightcode::test::reference_dir() + "/cpu_op_timings.csv";
  if (!lightcode::test::have_external(csv)) return;
  const std::string out = "/tmp/lightcode_test_calibrated_" + std::to_string(::getpid()) + ".yaml";
  const auto r = run_lightcode("calibrate " + csv + " --out " + out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("dense") != std::string::npos);
  CHECK(r.out.find("R^2") != std::string::npos);
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str().find("fits:") != std::string::npos);
  // The written spec is a valid CPU for a system.
  const std::string sys = "/tmp/lightcode_test_calibrated_sys_" + std::to_string(::getpid()) + ".yaml";
  std::ofstream(sys) << "name: calibrated\nunits:\n  cpu: {from: " << out << "}\nmemory:\n"
                     << "  hbm: {from: " << source_dir() << "/configs/hardware/hbm_seed.yaml}\n"
                     << "  sram: {from: " << source_dir() << "/configs/hardware/sram_seed.yaml}\n";
  const auto show = run_lightcode("hw show " + sys);
  CHECK(show.exit_code == 0);
  CHECK(show.out.find("fit dense") != std::string::npos);
  std::remove(out.c_str());
  std::remove(sys.c_str());
}

TEST_CASE("docs/CONFIG.md is what `lightcode reference` generates from the parameter tables") {
  const auto r = run_lightcode("reference");
  REQUIRE(r.exit_code == 0);
  std::ifstream in(source_dir() + "/docs/CONFIG.md");
  std::stringstream doc;
  doc << in.rdbuf();
  INFO("regenerate with: build/lightcode reference > docs/CONFIG.md");
  CHECK(doc.str() == r.out);
  // Every key of every file kind is there: a family's, a nested table's, a scenario's.
  for (const char* row : {"| `multiplex` |", "| `beyond_cache` |", "| `energy_per_bit` |", "| `torch_dtype` |",
                          "| `new_tokens` |", "| `thresholds` |", "### `phu.converter`", "## Inheritance: `from:`"}) {
    CAPTURE(row);
    CHECK(r.out.find(row) != std::string::npos);
  }
}
