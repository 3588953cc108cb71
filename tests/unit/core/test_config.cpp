// Strict YAML: every error names file, line and key path.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/core/config.hpp"

using namespace lightcode;

namespace {
std::string error_of(const std::string& yaml, void (*read)(const ConfigNode&)) {
  try {
    read(ConfigNode::parse(yaml, "unit.yaml"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("typed reads with units") {
  const ConfigNode c = ConfigNode::parse("cpu:\n  cores: 4\n  clock: 3.2 GHz\n", "unit.yaml");
  CHECK(c.at("cpu").positive_int("cores") == 4);
  CHECK(c.at("cpu").positive_quantity("clock", Dimension::frequency) == doctest::Approx(3.2e9));
}

TEST_CASE("an unknown key names file, line, path and the closest allowed key") {
  const std::string msg = error_of("cpu:\n  cores: 4\n  clokc: 3 GHz\n", [](const ConfigNode& c) {
    c.at("cpu").allow_only({"cores", "clock"});
  });
  CHECK(msg.find("unit.yaml:3:") == 0);
  CHECK(msg.find("cpu.clokc") != std::string::npos);
  CHECK(msg.find("did you mean 'clock'") != std::string::npos);
}

TEST_CASE("a missing key, a missing unit, a negative or zero value") {
  auto cores = [](const ConfigNode& c) { c.at("cpu").positive_int("cores"); };
  auto clock = [](const ConfigNode& c) { c.at("cpu").positive_quantity("clock", Dimension::frequency); };
  CHECK(error_of("cpu:\n  clock: 3 GHz\n", cores).find("unit.yaml:2:3: cpu: missing key 'cores'") == 0);
  CHECK(error_of("cpu:\n  cores: 0\n", cores).find("unit.yaml:2:10: cpu.cores: must be a positive integer") == 0);
  CHECK(error_of("cpu:\n  clock: 3.2\n", clock).find("cpu.clock: '3.2' has no unit") != std::string::npos);
  CHECK(error_of("cpu:\n  clock: -1 GHz\n", clock).find("cpu.clock: must be positive") != std::string::npos);
}

TEST_CASE("YAML syntax errors carry the line") {
  const std::string msg = error_of("cpu: [1, 2\n", [](const ConfigNode&) {});
  CHECK(msg.find("unit.yaml:") == 0);
  CHECK(msg.find("YAML syntax error") != std::string::npos);
}

TEST_CASE("from: inherits a base file and overrides key by key") {
  const auto dir = std::filesystem::temp_directory_path() / "lightcode_config_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "base.yaml") << "cpu:\n  cores: 1\n  clock: 3 GHz\n";
  std::ofstream(dir / "child.yaml") << "from: base.yaml\ncpu:\n  cores: 8\n";
  const ConfigNode c = ConfigNode::load_file((dir / "child.yaml").string());
  CHECK(c.at("cpu").positive_int("cores") == 8);
  CHECK(c.at("cpu").positive_quantity("clock", Dimension::frequency) == doctest::Approx(3e9));
  CHECK(c.at("cpu").at("clock").file().find("base.yaml") != std::string::npos);
  CHECK(c.at("cpu").at("cores").file().find("child.yaml") != std::string::npos);
}
