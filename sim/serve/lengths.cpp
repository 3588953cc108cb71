#include "sim/serve/lengths.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/limits.hpp"

namespace lightcode::serve {
namespace {

Param min_row() { return Param::count("min", limits::kSequenceLength).required().doc("the shortest length"); }
Param max_row() { return Param::count("max", limits::kSequenceLength).required().doc("the longest length, >= min"); }

// min and max, max not below min (an error at max).
std::pair<int64_t, int64_t> bounds(const Params& p) {
  const int64_t lo = p.count("min"), hi = p.count("max");
  if (hi < lo) p.at("max").fail("max " + std::to_string(hi) + " is below min " + std::to_string(lo));
  return {lo, hi};
}

}  // namespace

int64_t FixedLengths::draw(Rng&) const { return value; }

int64_t UniformLengths::draw(Rng& rng) const {
  const auto span = static_cast<uint64_t>(max - min + 1);
  return min + static_cast<int64_t>(rng.next() % span);  // span << 2^64: the bias is negligible
}

int64_t LognormalLengths::draw(Rng& rng) const {
  const double v = median * std::exp(sigma * rng.normal());
  return std::clamp(static_cast<int64_t>(std::llround(std::min(v, 1e15))), min, max);
}

const ParamTable& lengths_table() {
  static const ParamTable table{
      "scenario.length",
      "A token-count distribution for generated requests: `distribution` chooses a registered one, "
      "whose own keys sit beside it (`lightcode list lengths`).",
      {Param::text("distribution").required().doc("a registered length distribution: fixed, uniform or lognormal")}};
  return table;
}

LengthDistribution fixed_lengths() {
  static const ParamTable table{
      "length.fixed",
      "Every request the same length.",
      {Param::count("value", limits::kSequenceLength).required().doc("the length")}};
  return {"fixed", "every request `value` tokens", &table,
          [](const Params& p) -> std::shared_ptr<const Lengths> { return std::make_shared<FixedLengths>(p.count("value")); }};
}

LengthDistribution uniform_lengths() {
  static const ParamTable table{"length.uniform", "Uniform on min..max.", {min_row(), max_row()}};
  return {"uniform", "uniform on min..max", &table, [](const Params& p) -> std::shared_ptr<const Lengths> {
            const auto [lo, hi] = bounds(p);
            return std::make_shared<UniformLengths>(lo, hi);
          }};
}

LengthDistribution lognormal_lengths() {
  static const ParamTable table{
      "length.lognormal",
      "Lognormal lengths, rounded and clipped to min..max.",
      {Param::real("median").positive().required().doc("the median length"),
       Param::real("sigma").required().doc("the standard deviation of the length's log, >= 0"), min_row(), max_row()}};
  return {"lognormal", "median x exp(sigma x N(0,1)), rounded and clipped to min..max", &table,
          [](const Params& p) -> std::shared_ptr<const Lengths> {
            const double sigma = p.real("sigma");
            if (sigma < 0.0) p.at("sigma").fail("sigma must be >= 0");
            const auto [lo, hi] = bounds(p);
            return std::make_shared<LognormalLengths>(p.real("median"), sigma, lo, hi);
          }};
}

}  // namespace lightcode::serve
