#pragma once
// Where tests find external data and the built binary. External TVM graphs and reference
// timings live in ../shared beside the checkout (CMake cache variables); a test case that needs
// them is skipped when they are absent: have_external() prints why and exits the process with
// 77, which ctest reports as skipped (every doctest entry has SKIP_RETURN_CODE 77,
// cmake/tests.cmake), never as passed. As with require_h5py() (python.hpp), a test binary run
// by hand stops at the first such case: run ctest, or pick cases with --test-case.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
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

// True when the external file exists; otherwise prints why and exits with 77 (skipped). The
// result stays a bool so that a case reads `if (!have_external(path)) return;`.
inline bool have_external(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  std::printf("SKIP: external data '%s' is absent (../shared beside the checkout, or "
              "-DLIGHTCODE_TVM_GRAPHS=... / -DLIGHTCODE_SHARED_REFERENCE=...); exiting with 77\n",
              path.c_str());
  std::fflush(stdout);
  std::exit(77);
}

}  // namespace lightcode::test
