#pragma once
// Arrival processes for generated requests: the gap between one arrival and the next, at
// `rate` arrivals per second. Each is registered (register_policies.cpp) with its parameter
// table and a parse (policy.hpp), chosen by `arrival:` in a scenario's `requests:` mapping:
//   poisson — exponential gaps
//   gamma   — gamma gaps with coefficient of variation `cv` (1: Poisson; > 1 burstier)
#include <memory>
#include <string_view>

#include "sim/serve/policy.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

// The largest gamma cv (shape 1 / cv^2 >= 1e-4). Our bound: beyond it the gaps' mean 1 / rate
// rests on draws rarer than 1 in 10,000 (over 99 % of gaps are below a picosecond), so no run
// shows the rate it was asked for. Every cv in (0, kGammaMaxCv] is drawn by an exact method in
// arithmetic that neither overflows nor cancels (arrivals.cpp).
inline constexpr double kGammaMaxCv = 100.0;
inline constexpr std::string_view kGammaMaxCvWhy =
    "beyond it the gaps' mean rests on draws rarer than 1 in 10,000, so no run shows its arrival rate";

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
  double cv = 1.0;  // the gaps' coefficient of variation, in (0, kGammaMaxCv]
  // Throws lightcode::Error for a cv outside (0, kGammaMaxCv] (the table checks it at its key;
  // this guards the spec built in code).
  explicit GammaArrivals(double cv_);
  double gap_s(Rng& rng, double rate_per_s) const override;
};

ArrivalProcess poisson_arrivals();
ArrivalProcess gamma_arrivals();

}  // namespace lightcode::serve
