#pragma once
// Runs the built `lightcode` binary for end-to-end tests: exit code, stdout, stderr.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/paths.hpp"

namespace lightcode::test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `timeout_s` > 0: killed after that many seconds (a hang then fails the test, exit 124).
inline RunResult run_lightcode(const std::string& args, int timeout_s = 0) {
  static int counter = 0;
  const std::string err_file = "/tmp/lightcode_test_stderr_" + std::to_string(::getpid()) + "_" +
                               std::to_string(counter++);
  const std::string limit = timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : "";
  const std::string cmd = limit + lightcode_binary() + " " + args + " 2>" + err_file;
  RunResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), got);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::remove(err_file.c_str());
  return r;
}

}  // namespace lightcode::test
