#pragma once
// Tests that read results files with Python's h5py. Debian's python3-h5py is for
// /usr/bin/python3; LIGHTCODE_TEST_PYTHON names another interpreter (e.g. a missing one, to
// see the skip). A test case that needs h5py calls require_h5py() before anything else: when
// the interpreter cannot import h5py it prints "SKIP: ..." and exits the process with
// kSkipExitCode (77). Every doctest entry is registered with SKIP_RETURN_CODE 77
// (cmake/tests.cmake), one ctest entry per test case, so ctest reports exactly that case as
// skipped, never as passed. Run by hand, a test binary stops at the first such case with
// exit code 77: run ctest, or pick cases with --test-case / --test-case-exclude.
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace lightcode::test {

inline constexpr int kSkipExitCode = 77;

inline std::string python() {
  const char* env = std::getenv("LIGHTCODE_TEST_PYTHON");
  return env && *env ? env : "/usr/bin/python3";
}

// Exits the process with kSkipExitCode unless `python() -c "import <modules>"` succeeds.
inline void require_python_modules(const std::string& modules) {
  const std::string cmd = "'" + python() + "' -c 'import " + modules + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) == 0) return;
  std::printf("SKIP: %s cannot import %s (Debian: python3-h5py); exiting with %d\n",
              python().c_str(), modules.c_str(), kSkipExitCode);
  std::fflush(stdout);
  std::exit(kSkipExitCode);
}

inline void require_h5py() {
  require_python_modules("h5py");
}

// Runs `script` with python(); its stdout (stderr goes to the test's).
inline std::string run_python(const std::string& script) {
  char path[] = "/tmp/lightcode_test_py_XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return "";
  FILE* f = ::fdopen(fd, "w");
  std::fputs(script.c_str(), f);
  std::fclose(f);
  const std::string cmd = "'" + python() + "' " + path;
  std::string out;
  if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t got = 0;
    while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, got);
    ::pclose(pipe);
  }
  std::remove(path);
  return out;
}

}  // namespace lightcode::test
