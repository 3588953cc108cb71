#pragma once
// Strong types for the two quantities every stage exchanges.
// Time: integer picoseconds (the SystemC resolution). Models compute in double seconds and
// round exactly once, in Time::from_seconds, which rejects what int64 picoseconds cannot hold
// (NaN, negative, or beyond 106 days) with a lightcode::Error; sums are checked the same way.
// Energy: double picojoules, as the original reports; an Energy is made finite or not at all,
// and check_energy rejects sums that overflowed to inf.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include "sim/core/checked.hpp"

namespace lightcode {

inline constexpr double kPicosPerSecond = 1e12;
inline constexpr double kPicojoulesPerJoule = 1e12;
inline constexpr double kBitsPerByte = 8.0;

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t picoseconds) { return Time(picoseconds); }
  // Rounds to the nearest picosecond. A NaN, negative or unrepresentable duration throws.
  static Time from_seconds(double seconds) {
    const double ps = seconds * kPicosPerSecond;
    // The largest double below 2^63: everything under it rounds into int64.
    if (!(ps >= 0.0 && ps < 9223372036854774784.0)) reject_seconds(seconds);
    return Time(std::llround(ps));
  }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t count_ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) / kPicosPerSecond; }

  Time operator+(Time o) const { return Time(add_ps(ps_, o.ps_, "a sum of times")); }
  // The same sum, naming what it is when it cannot be represented (see checked.hpp).
  template <class What>
  Time plus(Time o, const What& what) const {
    return Time(add_ps(ps_, o.ps_, what));
  }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  Time& operator+=(Time o) { ps_ = add_ps(ps_, o.ps_, "a sum of times"); return *this; }
  Time operator*(int64_t k) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(ps_, k, &r)) throw_time_overflow("a multiple of a time");
    return Time(r);
  }
  constexpr bool operator==(Time o) const { return ps_ == o.ps_; }
  constexpr bool operator!=(Time o) const { return ps_ != o.ps_; }
  constexpr bool operator<(Time o) const { return ps_ < o.ps_; }
  constexpr bool operator<=(Time o) const { return ps_ <= o.ps_; }
  constexpr bool operator>(Time o) const { return ps_ > o.ps_; }
  constexpr bool operator>=(Time o) const { return ps_ >= o.ps_; }

 private:
  constexpr explicit Time(int64_t p) : ps_(p) {}
  [[noreturn]] static void reject_seconds(double seconds);
  int64_t ps_ = 0;
};

class Energy {
 public:
  constexpr Energy() = default;
  // Both throw lightcode::Error for an infinite or NaN energy (a model fed extreme parameters):
  // a cost model's result is finite or an error, never inf. Sums are checked by check_energy.
  static Energy pj(double picojoules) { return Energy(finite_or_throw(picojoules)); }
  static Energy from_joules(double joules) { return Energy(finite_or_throw(joules * kPicojoulesPerJoule)); }
  static constexpr Energy zero() { return Energy(0.0); }

  constexpr double picojoules() const { return pj_; }
  constexpr double joules() const { return pj_ / kPicojoulesPerJoule; }

  constexpr Energy operator+(Energy o) const { return Energy(pj_ + o.pj_); }
  constexpr Energy operator-(Energy o) const { return Energy(pj_ - o.pj_); }
  constexpr Energy& operator+=(Energy o) { pj_ += o.pj_; return *this; }
  constexpr Energy operator*(double k) const { return Energy(pj_ * k); }
  constexpr bool operator==(Energy o) const { return pj_ == o.pj_; }
  constexpr bool operator<(Energy o) const { return pj_ < o.pj_; }

 private:
  constexpr explicit Energy(double p) : pj_(p) {}
  static double finite_or_throw(double picojoules) {
    if (!std::isfinite(picojoules)) reject_energy_value(picojoules);
    return picojoules;
  }
  [[noreturn]] static void reject_energy_value(double picojoules);
  double pj_ = 0.0;
};

[[noreturn]] void reject_energy(double picojoules, std::string_view what);
// Returns `picojoules` when finite, else throws lightcode::Error "<what>: energy ... is not
// representable"; `what` as in checked.hpp (a literal, or a callable run only on failure).
// For sums and products of energies, which may overflow where each term did not.
template <class What>
double check_energy(double picojoules, const What& what) {
  if (!std::isfinite(picojoules)) reject_energy(picojoules, describe(what));
  return picojoules;
}

}  // namespace lightcode
