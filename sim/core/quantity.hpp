#pragma once
// Strong types for the two quantities every stage exchanges.
// Time: integer picoseconds (the SystemC resolution). Models compute in double seconds and
// round exactly once, in Time::from_seconds. Energy: double picojoules, as the original reports.
#include <cmath>
#include <cstdint>
#include <limits>

namespace lightcode {

inline constexpr double kPicosPerSecond = 1e12;
inline constexpr double kPicojoulesPerJoule = 1e12;

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t picoseconds) { return Time(picoseconds); }
  // Rounds to the nearest picosecond; negative or NaN durations are a model bug upstream.
  static Time from_seconds(double seconds) {
    return Time(static_cast<int64_t>(std::llround(seconds * kPicosPerSecond)));
  }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t count_ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) / kPicosPerSecond; }

  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }
  constexpr bool operator==(Time o) const { return ps_ == o.ps_; }
  constexpr bool operator!=(Time o) const { return ps_ != o.ps_; }
  constexpr bool operator<(Time o) const { return ps_ < o.ps_; }
  constexpr bool operator<=(Time o) const { return ps_ <= o.ps_; }
  constexpr bool operator>(Time o) const { return ps_ > o.ps_; }
  constexpr bool operator>=(Time o) const { return ps_ >= o.ps_; }

 private:
  constexpr explicit Time(int64_t p) : ps_(p) {}
  int64_t ps_ = 0;
};

class Energy {
 public:
  constexpr Energy() = default;
  static constexpr Energy pj(double picojoules) { return Energy(picojoules); }
  static constexpr Energy from_joules(double joules) { return Energy(joules * kPicojoulesPerJoule); }
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
  double pj_ = 0.0;
};

}  // namespace lightcode
