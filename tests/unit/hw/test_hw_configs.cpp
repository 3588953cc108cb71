// Every shipped hardware config loads with its family's parser and builds a model; a bad
// spec fails with file, line and key. The four error cases are one test case each.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>

#include "hw_models/cpu/cpu_model.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/memory/memory_model.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

// The family's registered model under `profile`.
std::unique_ptr<HardwareModel> build(const ConfigNode& spec, const char* profile = "default") {
  const FamilyInfo* family = default_registry().find(spec.string("family"));
  if (!family) spec.at("family").fail("unknown family");
  ConfigUsage usage;
  return family->model_for(profile_named(profile))(Params(spec, *family->params, usage));
}

std::string error_of(const std::string& yaml, const std::function<void(const ConfigNode&)>& parse) {
  try {
    parse(ConfigNode::parse(yaml, "bad.yaml"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every file in configs/hardware builds its family's model (*_lightcode.yaml: the lightcode profile's)") {
  const std::filesystem::path dir = test::source_dir() + "/configs/hardware";
  REQUIRE(std::filesystem::is_directory(dir));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    CAPTURE(entry.path().string());
    const ConfigNode spec = ConfigNode::load_file(entry.path().string());
    CHECK(spec.has("name"));
    std::unique_ptr<HardwareModel> model;
    const bool original = entry.path().stem().string().find("_lightcode") != std::string::npos;
    CHECK_NOTHROW(model = build(spec, original ? "lightcode" : "default"));
    if (model) {
      CHECK(model->unit_count() >= 1);
      // Photonic exactly when the family is the photonic one; outputs kept by memories.
      CHECK(model->capabilities().photonic == (spec.string("family") == "phu"));
    }
    ++files;
  }
  CHECK(files >= 14);
}

TEST_CASE("shipped figures: H100 SXM has 132 SMs, the Xeon 56 cores, the seed PHU 20 wavelengths") {
  const std::string dir = test::source_dir() + "/configs/hardware/";
  const GpuSpec h100 = parse_gpu_spec(ConfigNode::load_file(dir + "h100_sxm.yaml"));
  CHECK(h100.sms() == 132);
  CHECK(h100.tensor_flops.at(ir::DType::bfloat16) == doctest::Approx(989.4e12));
  CHECK(h100.hbm_bandwidth == doctest::Approx(3.35e12));
  CHECK(parse_gpu_spec(ConfigNode::load_file(dir + "h100_lightcode.yaml")).sms() == 144);
  // The A100 is an unseen GPU: datasheet values, and exactly the H100's model constants.
  const GpuSpec a100 = parse_gpu_spec(ConfigNode::load_file(dir + "a100_sxm.yaml"));
  CHECK(a100.sms() == 108);
  CHECK(a100.tensor_flops.at(ir::DType::bfloat16) == doctest::Approx(312e12));
  CHECK(a100.hbm_bandwidth == doctest::Approx(2.039e12));
  CHECK(2.0 * a100.sms() * a100.fp32_cores_per_sm * a100.clock_hz == doctest::Approx(19.5e12).epsilon(0.01));
  // The kernel model's fitted constants (gpu_kernel_fit.hpp) are not keys, so no GPU can carry
  // its own; the runtime and its parameters are the H100's.
  CHECK(a100.runtime == h100.runtime);
  CHECK(a100.timing.launch_overhead_s == h100.timing.launch_overhead_s);
  CHECK(a100.timing.kernel_gap_s == h100.timing.kernel_gap_s);
  CHECK(a100.sfus_per_sm == h100.sfus_per_sm);
  CHECK(a100.fuse_all == h100.fuse_all);
  CHECK(a100.energy_per_mac_j == h100.energy_per_mac_j);
  const CpuSpec xeon = parse_cpu_spec(ConfigNode::load_file(dir + "xeon_8480.yaml"));
  CHECK(xeon.cores == 56);
  CHECK(xeon.memory_bandwidth == doctest::Approx(307.2e9));
  const CpuSpec seed = parse_cpu_spec(ConfigNode::load_file(dir + "cpu_seed.yaml"));
  CHECK(seed.clock_hz == doctest::Approx(3.208e9));
  CHECK(seed.fits.at("dense").per_work_s == doctest::Approx(6.845684637179875e-11));
  CHECK(seed.fits.at("pack").beyond_cache_points > 0);
  const PhuSpec phu = parse_phu_spec(ConfigNode::load_file(dir + "phu_lightcode.yaml"));
  CHECK(phu.multiplex == 20);
  CHECK(phu.dac.energy_per_sample_j == doctest::Approx(3.18e-12));
  const MemorySpec hbm = parse_memory_spec(ConfigNode::load_file(dir + "hbm_seed.yaml"));
  CHECK((hbm.read_energy_j + hbm.preload_energy_j) == doctest::Approx(200e-12));
}

TEST_CASE("a typo'd key names file, line, key and the intended key") {
  const std::string msg = error_of("family: gpu\ngpcs: 1\ntpcs_per_gpc: 66\nsms_per_tcp: 2\n",
                                   [](const ConfigNode& n) { parse_gpu_spec(n); });
  CHECK(msg.find("bad.yaml:4:") == 0);
  CHECK(msg.find("sms_per_tcp") != std::string::npos);
  CHECK(msg.find("did you mean 'sms_per_tpc'") != std::string::npos);
}

TEST_CASE("a quantity without a unit names file, line and key") {
  const std::string msg = error_of("family: phu\ncores: 1\nclock: 9.7\nmultiplex: 20\n",
                                   [](const ConfigNode& n) { parse_phu_spec(n); });
  CHECK(msg.find("bad.yaml:3:") == 0);
  CHECK(msg.find("clock") != std::string::npos);
  CHECK(msg.find("has no unit") != std::string::npos);
}

TEST_CASE("a negative clock names file, line and key") {
  const std::string msg = error_of("family: cpu\ncores: 2\nclock: -3.2 GHz\n",
                                   [](const ConfigNode& n) { parse_cpu_spec(n); });
  CHECK(msg.find("bad.yaml:3:") == 0);
  CHECK(msg.find("clock") != std::string::npos);
  CHECK(msg.find("must be positive") != std::string::npos);
}

TEST_CASE("a zero core count names file, line and key") {
  const std::string msg = error_of("family: cpu\nname: x\ncores: 0\nclock: 3 GHz\n",
                                   [](const ConfigNode& n) { parse_cpu_spec(n); });
  CHECK(msg.find("bad.yaml:3:") == 0);
  CHECK(msg.find("cores") != std::string::npos);
  CHECK(msg.find("must be an integer from 1 to 65536 (unit_count), got 0") != std::string::npos);
}

TEST_CASE("every registered table: defaults parse as their type and every key has a doc") {
  std::vector<const ParamTable*> tables{&hw::system_params()};
  for (const hw::FamilyInfo& f : hw::default_registry().families()) tables.push_back(f.params);
  for (const ParamTable* t : tables) {
    REQUIRE(t != nullptr);
    CAPTURE(t->name);
    const std::vector<std::string> problems = check_defaults(*t);
    for (const std::string& problem : problems) MESSAGE(problem);
    CHECK(problems.empty());
  }
}
