#pragma once
// Reading a file a test wrote (a trace, a waveform, a results file) back whole.
#include <fstream>
#include <iterator>
#include <string>

namespace lightcode::test {

// The file's bytes; "" when it cannot be read.
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace lightcode::test
