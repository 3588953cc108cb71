#pragma once
// Token-count distributions for generated requests' prompts and outputs. Each is registered
// (register_policies.cpp) with its parameter table and a parse (policy.hpp), chosen by
// `distribution:` in a `prompt:` or `output:` mapping:
//   fixed     — every request `value` tokens
//   uniform   — uniform on min..max
//   lognormal — median x exp(sigma x N(0,1)), rounded and clipped to min..max
#include <cstdint>
#include <memory>

#include "sim/serve/policy.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

class Lengths {
 public:
  virtual ~Lengths() = default;
  // One length (>= 1), from the one random stream.
  virtual int64_t draw(Rng& rng) const = 0;
};

using LengthDistribution = PolicyEntry<Lengths>;

struct FixedLengths : Lengths {
  int64_t value = 128;
  explicit FixedLengths(int64_t v) : value(v) {}
  int64_t draw(Rng& rng) const override;
};

struct UniformLengths : Lengths {
  int64_t min = 1, max = 1;
  UniformLengths(int64_t lo, int64_t hi) : min(lo), max(hi) {}
  int64_t draw(Rng& rng) const override;
};

struct LognormalLengths : Lengths {
  double median = 128.0, sigma = 0.0;
  int64_t min = 1, max = 1;
  LognormalLengths(double median_, double sigma_, int64_t lo, int64_t hi) : median(median_), sigma(sigma_), min(lo), max(hi) {}
  int64_t draw(Rng& rng) const override;
};

// The selector of a `prompt:` / `output:` mapping: `distribution` (required).
const ParamTable& lengths_table();
LengthDistribution fixed_lengths();
LengthDistribution uniform_lengths();
LengthDistribution lognormal_lengths();

}  // namespace lightcode::serve
