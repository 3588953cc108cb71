#pragma once
// The contract every fuzz target checks: a loader either accepts its input, and then every
// number it hands on is finite and in range, or throws lightcode::Error. Any other exception,
// a crash, a sanitizer report, a hang or an accepted non-finite value is a finding: the
// harness prints what it saw and aborts, so libFuzzer saves the input as a crash reproducer.
#include <cxxabi.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "hw_models/cost.hpp"
#include "sim/core/error.hpp"

namespace lightcode::fuzz {

// The source tree (scenarios/, configs/), compiled in by cmake/fuzz.cmake.
inline std::string source_dir() {
  return LIGHTCODE_FUZZ_SOURCE_DIR;
}

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "\n==== FUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// The dynamic type of an exception, demangled ("YAML::BadConversion").
inline std::string type_name(const std::exception& e) {
  int status = 0;
  char* name = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
  std::string s = status == 0 && name ? name : typeid(e).name();
  std::free(name);
  return s;
}

inline void require(bool ok, const std::string& what) {
  if (!ok) finding(what);
}

inline void require_finite(double v, const std::string& what) {
  if (!std::isfinite(v)) finding("accepted a non-finite " + what + " (" + std::to_string(v) + ")");
}

// A cost the model returned instead of throwing: time >= 0, energy finite and >= 0.
inline void require_cost(const hw::Cost& c, const std::string& what) {
  require(c.time.count_ps() >= 0,
          what + ": negative time " + std::to_string(c.time.count_ps()) + " ps");
  require_finite(c.energy.picojoules(), what + " energy");
  require(c.energy.picojoules() >= 0.0,
          what + ": negative energy " + std::to_string(c.energy.picojoules()) + " pJ");
  require(c.bytes_read >= 0 && c.bytes_written >= 0, what + ": negative bytes");
}

// LIGHTCODE_FUZZ_VERBOSE=1: print whether each input was accepted, or the loader's message.
inline bool verbose() {
  static const bool on = std::getenv("LIGHTCODE_FUZZ_VERBOSE") != nullptr;
  return on;
}

// Runs `body(text)`; lightcode::Error is the loader's accepted way to refuse an input.
template <class Body>
int run(const uint8_t* data, size_t size, Body&& body) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    body(text);
    if (verbose()) std::fprintf(stderr, "accepted\n");
  } catch (const Error& e) {
    // Refused with a placed message: what a loader should do. LIGHTCODE_FUZZ_VERBOSE=1 shows
    // it (to check that a seed is accepted, or why not).
    if (verbose()) std::fprintf(stderr, "refused: %s\n", e.what());
  } catch (const std::exception& e) {
    finding("an exception that is not lightcode::Error escaped: " + type_name(e) + ": " + e.what());
  } catch (...) {
    finding("a non-std exception escaped");
  }
  return 0;
}

}  // namespace lightcode::fuzz
