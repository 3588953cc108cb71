// Systems: every shipped system loads in its profile with every key read; the registry lists
// every family; bad system files fail with file, line and key; a key no model reads is an
// error; roles go to the units able to play them (or as `role:` says), whatever their names;
// a hardware file or a system made for another profile says what it is and what to use.
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

TEST_CASE("every shipped system loads in its profile, every key read (configs/systems/lightcode: lightcode)") {
  int files = 0;
  for (const std::string& dir : {systems_dir(), systems_dir() + "/lightcode"}) {
    const hw::Profile& p = hw::profile_named(dir == systems_dir() ? "default" : "lightcode");
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".yaml") continue;
      CAPTURE(entry.path().string());
      const System s = System::load(entry.path().string(), p);  // a set-but-unread key throws
      // Every shipped system resolves its roles from the memories' levels, no `role:` needed.
      CHECK(s.role_unit(Role::resident) == s.find("hbm"));
      CHECK(s.role_unit(Role::staging) == s.find("sram"));
      CHECK(s.role_unit(Role::relay) == s.find("sram"));
      CHECK((s.role_unit(Role::start) >= 0) == p.start_tasks());
      CHECK(s.role_unit(Role::start) == s.find("start"));
      CHECK_FALSE(s.config().has("role"));
      ++files;
    }
  }
  CHECK(files >= 9);
}

TEST_CASE("the seed CPU/PHU system: unit types in file order, models by profile") {
  const System s = System::load(systems_dir() + "/lightcode/cpu_phu.yaml", hw::profile_named("lightcode"));
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
      "name: X\nunits:\n  tpu: {family: tpu, name: t}\nmemory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n"
      "  sram: {from: ../hardware/sram_seed.yaml}\n");
  CHECK(msg.find("sys.yaml:3:") == 0);
  CHECK(msg.find("unknown hardware family 'tpu'") != std::string::npos);
  CHECK(msg.find("cpu, gpu, phu, interconnect, memory") != std::string::npos);
}

TEST_CASE("a system missing a memory a role needs names the file and the memory to add") {
  const std::string no_sram = error_of(
      "name: X\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\nmemory:\n"
      "  hbm: {from: ../hardware/hbm_seed.yaml}\n");
  CHECK(no_sram ==
        "sys.yaml:5:3: memory: no unit of this system can be the staging memory (photonic products are split, fed "
        "and merged there): add a memory of `level: sram` under `memory:`, e.g. "
        "`sram: {from: ../hardware/sram_seed.yaml}`");
  const std::string no_hbm = error_of(
      "name: X\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\nmemory:\n"
      "  sram: {from: ../hardware/sram_seed.yaml}\n");
  CHECK(no_hbm.find("sys.yaml:5:3: memory: no unit of this system can be the resident memory") == 0);
  CHECK(no_hbm.find("add a memory of `level: hbm` under `memory:`, e.g. `hbm: {from: ../hardware/hbm_seed.yaml}`") !=
        std::string::npos);
}

// Roles come from what the memories are (their level), not from their names; `role:` chooses
// where more than one could play a role.
namespace {
const std::string kRenamed =
    "name: R\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\n  phu: {from: ../hardware/phu_lightcode.yaml}\n"
    "memory:\n  dram: {from: ../hardware/hbm_seed.yaml}\n  scratch: {from: ../hardware/sram_seed.yaml}\n"
    "links:\n  - {src: dram, dst: scratch, latency: 1 ns}\n  - {src: scratch, dst: cpu, latency: 1 ns}\n"
    "  - {src: scratch, dst: phu, latency: 1 ns}\n";
const std::string kTwoSram =
    "name: T\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\n"
    "memory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n  near: {from: ../hardware/sram_seed.yaml}\n"
    "  far: {from: ../hardware/sram_seed.yaml}\n";
System system_of(const std::string& yaml) {
  return System::from_config(ConfigNode::parse(yaml, "sys.yaml", systems_dir()), hw::profile_named("default"));
}
}  // namespace

TEST_CASE("roles go to the memories able to play them, whatever their names") {
  const System s = system_of(kRenamed);
  CHECK(s.role_unit(Role::staging) == s.find("scratch"));
  CHECK(s.role_unit(Role::relay) == s.find("scratch"));
  CHECK(s.role_unit(Role::resident) == s.find("dram"));
  CHECK(s.role_unit(Role::start) == -1);
  CHECK(s.unit(s.find("scratch")).plays.has(Role::staging));
  CHECK_FALSE(s.unit(s.find("dram")).plays.has(Role::staging));
  // The relay routes transfers without a direct link: dram -> cpu goes through scratch.
  REQUIRE(s.topology() != nullptr);
  CHECK(s.topology()->relay() == s.find("scratch"));
  CHECK(s.topology()->route(s.find("dram"), s.find("cpu")).size() == 2);
  const ir::TensorType t{ir::Shape{1000}, ir::DType::float32};
  CHECK(s.transfers().estimate(t, s.find("dram"), s.find("cpu")).time == Time::ps(2000));
}

TEST_CASE("two memories able to play a role: the file must say which, and `role:` does") {
  CHECK(error_of(kTwoSram) ==
        "sys.yaml:5:3: memory: units near, far can each be the staging memory (photonic products are split, fed "
        "and merged there): say which under `role:`, e.g. `role: {staging: near}`");
  const System s = system_of(kTwoSram + "role: {staging: far}\n");
  CHECK(s.role_unit(Role::staging) == s.find("far"));
  CHECK(s.role_unit(Role::relay) == s.find("far"));  // the relay follows the staging memory
  const System split = system_of(kTwoSram + "role: {staging: far, relay: near}\n");
  CHECK(split.role_unit(Role::staging) == split.find("far"));
  CHECK(split.role_unit(Role::relay) == split.find("near"));
  CHECK(split.topology()->relay() == split.find("near"));
}

TEST_CASE("a `role:` naming a unit that cannot play it, or no unit, is an error at the key") {
  CHECK(error_of(kTwoSram + "role: {staging: hbm}\n") ==
        "sys.yaml:8:17: role.staging: unit 'hbm' cannot be the staging memory (photonic products are split, fed "
        "and merged there); a memory of `level: sram` can (here: near, far)");
  CHECK(error_of(kTwoSram + "role: {staging: nearr}\n") ==
        "sys.yaml:8:17: role.staging: 'nearr' is not a unit of this system (units: cpu, hbm, near, far)");
  CHECK(error_of(kTwoSram + "role: {resident: near, staging: near}\n").find("unit 'near' cannot be the resident "
                                                                              "memory") != std::string::npos);
  CHECK(error_of(kTwoSram + "role: {staging: near, start: near}\n").find("unknown key 'start'") !=
        std::string::npos);
}

TEST_CASE("an override on top of an inherited unit spec is applied") {
  const System s = System::from_config(
      ConfigNode::parse("name: X\nunits:\n  phu: {from: ../hardware/phu_lightcode.yaml, cores: 8}\n"
                        "memory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n"
                        "  sram: {from: ../hardware/sram_seed.yaml}\n",
                        "sys.yaml", systems_dir()),
      hw::profile_named("lightcode"));
  CHECK(s.model(s.find("phu")).unit_count() == 8);
}

TEST_CASE("the default profile validates a system's links, the lightcode profile reads none") {
  const std::string sys = "name: L\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\nmemory:\n"
                          "  hbm: {from: ../hardware/hbm_seed.yaml}\n  sram: {from: ../hardware/sram_seed.yaml}\n";
  CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpuu, latency: 1 ns}\n").find("cpuu") != std::string::npos);
  CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpu, latncy: 1 ns}\n").find("unknown key 'latncy'") !=
        std::string::npos);
  CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpu, bandwidth: 1e400 B/s}\n").find("bandwidth") !=
        std::string::npos);
  CHECK(error_of(sys + "links:\n  - {src: sram, dst: cpu, latency: 1 ns}\n").empty());
}

// A key that is set but that the model and profile in use never read is an error naming file,
// line and key, one file kind per case (as VCML reports unused properties).
namespace {
const std::string kLightcodeMemory =
    "memory:\n  hbm: {from: ../hardware/hbm_lightcode.yaml}\n  sram: {from: ../hardware/sram_lightcode.yaml}\n";
const std::string kSeedMemory =
    "memory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n  sram: {from: ../hardware/sram_seed.yaml}\n";

void check_unread(const std::string& error, const std::string& where, const std::string& key, const std::string& reader) {
  CAPTURE(error);
  CHECK(error.find(where) == 0);
  CHECK(error.find("key '" + key + "' is set but not read by " + reader) != std::string::npos);
}
}  // namespace

TEST_CASE("unread key, CPU: the lightcode profile's CPU has no use for gemm_efficiency") {
  const std::string e = error_of(
      "name: X\nunits:\n  cpu: {from: ../hardware/cpu_lightcode.yaml,\n        gemm_efficiency: 0.5}\n" +
          kLightcodeMemory,
      hw::profile_named("lightcode"));
  check_unread(e, "sys.yaml:4:26: units.cpu.gemm_efficiency", "gemm_efficiency",
               "the cpu model of unit 'cpu' under profile 'lightcode'");
}

TEST_CASE("unread key, PHU: the lightcode profile models no converter latency") {
  const std::string e = error_of(
      "name: X\nunits:\n  cpu: {from: ../hardware/cpu_lightcode.yaml}\n"
      "  phu: {from: ../hardware/phu_lightcode.yaml, dac: {latency: 2 ns}}\n" + kLightcodeMemory,
      hw::profile_named("lightcode"));
  check_unread(e, "sys.yaml:4:", "latency", "the phu model of unit 'phu' under profile 'lightcode'");
  CHECK(e.find("units.phu.dac.latency") != std::string::npos);
}

TEST_CASE("unread key, memory: no default-profile model reads an HBM's write energy or an SRAM's read energy") {
  const std::string units = "name: X\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\n";
  check_unread(error_of(units + "memory:\n  hbm: {from: ../hardware/hbm_lightcode.yaml}\n"
                                "  sram: {from: ../hardware/sram_seed.yaml}\n"),
               test::source_dir() + "/configs/hardware/hbm_lightcode.yaml:",
               "write_energy", "the memory model of unit 'hbm' under profile 'default'");
  check_unread(error_of(units + "memory:\n  hbm: {from: ../hardware/hbm_seed.yaml}\n"
                                "  sram: {from: ../hardware/sram_seed.yaml, read_energy: 12 pJ}\n"),
               "sys.yaml:6:", "read_energy", "the memory model of unit 'sram' under profile 'default'");
}

TEST_CASE("unread key, link and system: the lightcode profile reads no `links:`") {
  const std::string e = error_of("name: X\nunits:\n  cpu: {from: ../hardware/cpu_lightcode.yaml}\n" + kLightcodeMemory +
                                     "links:\n  - {src: sram, dst: cpu, latency: 1 ns}\n",
                                 hw::profile_named("lightcode"));
  check_unread(e, "sys.yaml:8:", "links", "profile 'lightcode'");
}

TEST_CASE("keys no model uses are not keys: a GPU's l2 is an unknown key") {
  const std::string e = error_of(
      "name: X\nunits:\n  gpu: {from: ../hardware/h100_sxm.yaml, l2: 50 MB}\n" + kSeedMemory);
  CHECK(e.find("sys.yaml:3:") == 0);
  CHECK(e.find("unknown key 'l2'") != std::string::npos);
}

// A file that is not a system for the profile in use says what it is and what to use.
namespace {
std::string load_error(const std::string& path, const char* profile) {
  try {
    System::load(path, hw::profile_named(profile));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a lightcode system under the default profile names its default counterpart, and the reverse") {
  const std::string lc = load_error(systems_dir() + "/lightcode/cpu_phu.yaml", "default");
  CHECK(lc.find(systems_dir() + "/lightcode/cpu_phu.yaml: this system file is made for profile 'lightcode' (it "
                                "loads under that profile, not under 'default' used here): for profile 'default' use " +
                systems_dir() + "/cpu_phu.yaml, the same system made for it; or run profile 'lightcode'. Under "
                                "profile 'default' it fails: ") == 0);
  CHECK(lc.find("a beyond_cache regime needs the CPU's `cache:` size") != std::string::npos);
  const std::string def = load_error(systems_dir() + "/gpu.yaml", "lightcode");
  CHECK(def.find(systems_dir() + "/gpu.yaml: this system file is made for profile 'default' (it loads under that "
                                 "profile, not under 'lightcode' used here): for profile 'lightcode' use " +
                 systems_dir() + "/lightcode/gpu.yaml, the same system made for it;") == 0);
  CHECK(def.find("key 'cache' is set but not read") != std::string::npos);
  // No counterpart: where to write it.
  const std::string none = load_error(systems_dir() + "/h100_sxm.yaml", "lightcode");
  CHECK(none.find("for profile 'lightcode' write " + systems_dir() +
                  "/lightcode/h100_sxm.yaml, the same system made for it (there is none yet)") != std::string::npos);
}

TEST_CASE("a system for another profile outside configs/systems/ says which folder holds this profile's") {
  const std::string text = "name: X\nunits:\n  cpu: {from: ../../hardware/cpu_lightcode.yaml}\n"
                           "memory:\n  hbm: {from: ../../hardware/hbm_lightcode.yaml}\n"
                           "  sram: {from: ../../hardware/sram_lightcode.yaml}\n";
  std::string msg;
  try {
    System::from_config(ConfigNode::parse(text, "/tmp/elsewhere/mine.yaml", systems_dir() + "/lightcode"),
                        hw::profile_named("default"));
  } catch (const Error& e) {
    msg = e.what();
  }
  CHECK(msg.find("/tmp/elsewhere/mine.yaml: this system file is made for profile 'lightcode'") == 0);
  CHECK(msg.find("for profile 'default' use a system file made for it (configs/systems/*.yaml); or run profile "
                 "'lightcode'") != std::string::npos);
  // It loads under its own profile.
  CHECK(System::from_config(ConfigNode::parse(text, "/tmp/elsewhere/mine.yaml", systems_dir() + "/lightcode"),
                            hw::profile_named("lightcode"))
            .name() == "X");
}

TEST_CASE("a hardware file given as a system says so and names a system that uses it") {
  const std::string hw_dir = test::source_dir() + "/configs/hardware";
  CHECK(load_error(hw_dir + "/h100_sxm.yaml", "default") ==
        hw_dir + "/h100_sxm.yaml:31:9: family: this is a hardware file (family: gpu), not a system file; a system "
                 "file lists its compute units under `units:` and its memories under `memory:`, each taken from a "
                 "hardware file (`units: {gpu: {from: ../hardware/h100_sxm.yaml}}`), and the `links:` between them; "
                 "see " + systems_dir() + "/h100_sxm.yaml, which uses this one");
  // A memory goes under `memory:`; the system named takes this very file (cpu_seed.yaml
  // inherits cpu_lightcode.yaml, but only lightcode/ systems take it directly).
  CHECK(load_error(hw_dir + "/sram_seed.yaml", "default").find("(`memory: {sram: {from: ../hardware/sram_seed.yaml}}`)") !=
        std::string::npos);
  CHECK(load_error(hw_dir + "/cpu_lightcode.yaml", "lightcode").find("see " + systems_dir() + "/lightcode/cpu.yaml,") !=
        std::string::npos);
}
