#pragma once
// Scenario text for tests: a base point plus a body. A base value that an axis of the body
// replaces in every point is read by no point, which is an error (an unread key), so the base
// drops the lines of the keys the body sweeps (an axis is a key indented by two spaces).
#include <sstream>
#include <string>

namespace lightcode::test {

inline std::string scenario_text(const std::string& base, const std::string& body) {
  std::istringstream lines(base);
  std::string out, line;
  while (std::getline(lines, line)) {
    const std::string key = line.substr(0, line.find(':'));
    if (body.find("\n  " + key + ":") == std::string::npos && body.rfind("  " + key + ":", 0) != 0)
      out += line + "\n";
  }
  return out + body;
}

}  // namespace lightcode::test
