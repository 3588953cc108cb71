#pragma once
// Arrival processes for generated requests: the gap between one arrival and the next, at
// `rate` arrivals per second. Each is registered (register_policies.cpp) with its parameter
// table and a parse (policy.hpp), chosen by `arrival:` in a scenario's `requests:` mapping:
//   poisson — exponential gaps
//   gamma   — gamma gaps with coefficient of variation `cv` (1: Poisson; > 1 burstier)
#include <memory>

#include "sim/serve/policy.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

class Arrivals {
 public:
  virtual ~Arrivals() = default;
  // One gap in seconds, from the one random stream.
  virtual double gap_s(Rng& rng, double rate_per_s) const = 0;
};

using ArrivalProcess = PolicyEntry<Arrivals>;

struct PoissonArrivals : Arrivals {
  double gap_s(Rng& rng, double rate_per_s) const override;
};

struct GammaArrivals : Arrivals {
  double cv = 1.0;  // the gaps' coefficient of variation, > 0
  explicit GammaArrivals(double cv_) : cv(cv_) {}
  double gap_s(Rng& rng, double rate_per_s) const override;
};

ArrivalProcess poisson_arrivals();
ArrivalProcess gamma_arrivals();

}  // namespace lightcode::serve
