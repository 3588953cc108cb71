#pragma once
// The message of the lightcode::Error `f` throws, or "" when it throws none: tests compare it
// with the expected text (file, line, key and what was expected).
#include <functional>
#include <string>

#include "sim/core/error.hpp"

namespace lightcode::test {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace lightcode::test
