// Systems: every shipped system loads in both profiles; the registry lists every family;
// bad system files fail with file, line and key.
#include <doctest/doctest.h>

#include <filesystem>

#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {
std::string systems_dir() { return test::source_dir() + "/configs/systems"; }

std::string error_of(const std::string& yaml, const hw::Profile& profile = hw::profile_named("default")) {
  try {
    System::from_config(ConfigNode::parse(yaml, "sys.yaml", systems_dir()), profile);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("the registry holds every family with its algorithms") {
  const Registry& r = default_registry();
  for (const char* f : {"cpu", "gpu", "phu", "memory"}) {
    CAPTURE(f);
    REQUIRE(r.find(f) != nullptr);
    CHECK_FALSE(r.find(f)->algorithms.empty());
  }
  CHECK(r.find("tpu") == nullptr);
}

TEST_CASE("every shipped system loads in both profiles") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(systems_dir())) {
    if (entry.path().extension() != ".yaml") continue;
    for (const hw::Profile* p : {&hw::profile_named("default"), &hw::profile_named("lightcode")}) {
      CAPTURE(entry.path().string());
      const System s = System::load(entry.path().string(), *p);
      CHECK(s.find("hbm") >= 0);
      CHECK(s.find("sram") >= 0);
      CHECK((s.find("start") >= 0) == p->start_tasks());
    }
    ++files;
  }
  CHECK(files >= 4);
}

TEST_CASE("the seed CPU/PHU system: unit types in file order, models by profile") {
  const System s = System::load(systems_dir() + "/cpu_phu.yaml", hw::profile_named("lightcode"));
  CHECK(s.name() == "CPU/PHU");
  REQUIRE(s.unit_count() == 5);
  CHECK(s.unit(0).name == "cpu");
  CHECK(s.unit(1).name == "phu");
  CHECK(s.unit(1).family->name == "phu");
  CHECK(s.model(1).capabilities().photonic);
  CHECK(s.model(s.find("phu")).unit_count() == 1);
}

TEST_CASE("an unknown family names the file, line and the known families") {
  const std::string msg = error_of(
      "name: X\nunits:\n  tpu: {family: tpu, name: t}\nmemory:\n  hbm: {from: ../hardware/hbm_lightcode.yaml}\n"
      "  sram: {from: ../hardware/sram_lightcode.yaml}\n");
  CHECK(msg.find("sys.yaml:3:") == 0);
  CHECK(msg.find("unknown hardware family 'tpu'") != std::string::npos);
  CHECK(msg.find("cpu, gpu, phu, memory") != std::string::npos);
}

TEST_CASE("a system without SRAM is rejected") {
  const std::string msg = error_of(
      "name: X\nunits:\n  cpu: {from: ../hardware/cpu_lightcode.yaml}\nmemory:\n"
      "  hbm: {from: ../hardware/hbm_lightcode.yaml}\n");
  CHECK(msg.find("needs an `sram`") != std::string::npos);
}

TEST_CASE("an override on top of an inherited unit spec is applied") {
  const System s = System::from_config(
      ConfigNode::parse("name: X\nunits:\n  phu: {from: ../hardware/phu_lightcode.yaml, cores: 8}\n"
                        "memory:\n  hbm: {from: ../hardware/hbm_lightcode.yaml}\n"
                        "  sram: {from: ../hardware/sram_lightcode.yaml}\n",
                        "sys.yaml", systems_dir()),
      hw::profile_named("lightcode"));
  CHECK(s.model(s.find("phu")).unit_count() == 8);
}

TEST_CASE("the lightcode profile validates a system's links too") {
  const std::string sys = "name: L\nunits:\n  cpu: {from: ../hardware/cpu_lightcode.yaml}\nmemory:\n"
                          "  hbm: {from: ../hardware/hbm_lightcode.yaml}\n  sram: {from: ../hardware/sram_lightcode.yaml}\n";
  for (const hw::Profile* profile : {&hw::profile_named("lightcode"), &hw::profile_named("default")}) {
    const hw::Profile& p = *profile;
    CAPTURE(p.name());
    CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpuu, latency: 1 ns}\n", p).find("cpuu") != std::string::npos);
    CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpu, latncy: 1 ns}\n", p).find("unknown key 'latncy'") !=
          std::string::npos);
    CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpu, bandwidth: 1e400 B/s}\n", p).find("bandwidth") !=
          std::string::npos);
  }
}
