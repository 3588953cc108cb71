#include "sim/serve/arrivals.hpp"

#include <cmath>

namespace lightcode::serve {
namespace {

// Gamma(shape, 1) by Marsaglia and Tsang (2000); shape < 1 through the boost u^(1/shape).
double gamma_unit(Rng& rng, double shape) {
  if (shape < 1.0) return gamma_unit(rng, shape + 1.0) * std::pow(rng.uniform(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0.0, v = 0.0;
    do {
      x = rng.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = rng.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

}  // namespace

double PoissonArrivals::gap_s(Rng& rng, double rate_per_s) const { return -std::log(rng.uniform()) / rate_per_s; }

// Gamma gaps with mean 1 / rate and coefficient of variation cv: shape 1 / cv^2.
double GammaArrivals::gap_s(Rng& rng, double rate_per_s) const {
  const double shape = 1.0 / (cv * cv);
  return gamma_unit(rng, shape) / (shape * rate_per_s);
}

ArrivalProcess poisson_arrivals() {
  static const ParamTable table{"arrival.poisson", "Poisson arrivals: no keys of their own.", {}};
  return {"poisson", "exponential gaps at `arrival_rate` per second", &table,
          [](const Params&) -> std::shared_ptr<const Arrivals> { return std::make_shared<PoissonArrivals>(); }};
}

ArrivalProcess gamma_arrivals() {
  static const ParamTable table{
      "arrival.gamma",
      "Gamma arrivals (sim/serve/arrivals.hpp).",
      {Param::real("cv").positive().required().doc(
          "the coefficient of variation of the gaps between arrivals (1: Poisson; > 1 burstier)")}};
  return {"gamma", "gamma gaps at `arrival_rate` per second with coefficient of variation `cv`", &table,
          [](const Params& p) -> std::shared_ptr<const Arrivals> { return std::make_shared<GammaArrivals>(p.real("cv")); }};
}

}  // namespace lightcode::serve
