#pragma once
// A fresh folder under /tmp for one test case, removed with everything in it at the end.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace lightcode::test {

struct Scratch {
  std::string dir;
  Scratch() {
    char pattern[] = "/tmp/lightcode_test_XXXXXX";
    dir = ::mkdtemp(pattern);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  std::string path(const std::string& name) const { return dir + "/" + name; }
  // Writes `text` to `name` in the folder; returns its path.
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }
};

}  // namespace lightcode::test
