#pragma once
// Where tests find external data and the built binary. External TVM graphs and reference
// timings live in ../shared beside the checkout (CMake cache variables); tests that need them
// skip with a message naming the folder when it is absent.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace lightcode::test {

inline std::string tvm_graph_dir() { return LIGHTCODE_TEST_TVM_GRAPHS; }
inline std::string reference_dir() { return LIGHTCODE_TEST_REFERENCE; }
inline std::string source_dir() { return LIGHTCODE_TEST_SOURCE_DIR; }
inline std::string lightcode_binary() { return LIGHTCODE_TEST_BINARY; }

inline std::string tvm_graph(const std::string& file) { return tvm_graph_dir() + "/" + file; }

// A shipped seed system ("cpu", "cpu_phu", "gpu", "gpu_phu", "h100_sxm_phu") for a profile:
// the lightcode profile's versions live in configs/systems/lightcode/ (no links; the
// original's figures), the default profile's in configs/systems/.
inline std::string system_file(const std::string& name, const std::string& profile = "default") {
  return source_dir() + "/configs/systems/" + (profile == "lightcode" ? "lightcode/" : "") + name + ".yaml";
}

// True when the external file exists; otherwise prints why the test is skipped.
inline bool have_external(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  MESSAGE("skipped: external data '" << path
          << "' is absent (set -DLIGHTCODE_TVM_GRAPHS=... to its folder)");
  return false;
}

}  // namespace lightcode::test
