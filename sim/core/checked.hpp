#pragma once
// Checked integer arithmetic, in one place. Element and byte counts, MACs and picosecond sums
// go through these: a result int64_t cannot hold is a lightcode::Error naming what was being
// computed ("the bytes of tensor [..]", "the schedule's time"), never a wrap or a saturation.
// `what` is a string literal or a callable returning the text; a callable runs only when the
// check fails, so hot paths build no strings.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "sim/core/error.hpp"

namespace lightcode {

// int64 picoseconds hold at most 9,223,372 s: this is how users read that limit.
inline constexpr std::string_view kTimeLimitText = "the representable 106 days at 1 ps";

// a / b rounded up, for a >= 0 and b > 0 (tiles, waves, passes: counts far from int64's limit).
inline constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

[[noreturn]] void throw_overflow(std::string_view what);
// Picosecond sums: the error states the time limit in the user's terms.
[[noreturn]] void throw_time_overflow(std::string_view what);

template <class What>
std::string describe(const What& what) {
  if constexpr (std::is_invocable_v<const What&>) {
    return std::string(what());
  } else {
    return std::string(what);
  }
}

template <class What>
int64_t checked_add(int64_t a, int64_t b, const What& what) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw_overflow(describe(what));
  return r;
}

template <class What>
int64_t checked_mul(int64_t a, int64_t b, const What& what) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw_overflow(describe(what));
  return r;
}

template <class What>
int64_t add_ps(int64_t a, int64_t b, const What& what) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw_time_overflow(describe(what));
  return r;
}

}  // namespace lightcode
