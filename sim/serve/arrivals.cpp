#include "sim/serve/arrivals.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/error.hpp"

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

// Below this cv (shape 1 / cv^2 above 1e8) the gaps are drawn by the same method written in cv
// (gamma_gap_narrow): the shape-form acceptance test cancels terms of size shape to keep ones
// of size 1, and the shape itself overflows for cv < 7.5e-155 (then the test is NaN forever).
constexpr double kNarrowCv = 1e-4;

// Marsaglia and Tsang for shape 1 / cv^2, in cv: with d = shape - 1/3, c = 1 / sqrt(9 d) and
// w = c x, the test log u < x^2 / 2 + d (1 - v + log v), v = (1 + w)^3, is exactly
// log u < (c^2 x^4 / 3) (-1/4 + w/5 - w^2/6 + w^3/7 - ...) (the series of 3 d (log1p(w) - w
// + w^2/2 - w^3/3), whose first terms cancel x^2 / 2); |w| < 3e-4 here, so four terms hold it
// to 1e-16. The gap d v / (shape rate) is (1 - cv^2 / 3) v / rate: nothing overflows.
double gamma_gap_narrow(Rng& rng, double cv, double rate_per_s) {
  const double k = 1.0 - cv * cv / 3.0;  // d / shape
  const double c = cv / (3.0 * std::sqrt(k));
  for (;;) {
    const double x = rng.normal();
    const double w = c * x;
    const double u = rng.uniform();
    const double series = -1.0 / 4.0 + w * (1.0 / 5.0 + w * (-1.0 / 6.0 + w / 7.0));
    if (std::log(u) < c * c * x * x * x * x / 3.0 * series) return k * (1.0 + w) * (1.0 + w) * (1.0 + w) / rate_per_s;
  }
}

}  // namespace

double PoissonArrivals::gap_s(Rng& rng, double rate_per_s) const { return -std::log(rng.uniform()) / rate_per_s; }

GammaArrivals::GammaArrivals(double cv_) : cv(cv_) {
  if (!(cv > 0.0) || !(cv <= kGammaMaxCv)) {
    char text[96];
    std::snprintf(text, sizeof text, "gamma arrivals: cv must be above 0 and at most %g, got %g", kGammaMaxCv, cv);
    throw Error(std::string(text) + " (" + std::string(kGammaMaxCvWhy) + ")");
  }
}

// Gamma gaps with mean 1 / rate and coefficient of variation cv: shape 1 / cv^2.
double GammaArrivals::gap_s(Rng& rng, double rate_per_s) const {
  if (cv < kNarrowCv) return gamma_gap_narrow(rng, cv, rate_per_s);
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
      {Param::real("cv").positive().at_most(kGammaMaxCv, std::string(kGammaMaxCvWhy)).required().doc(
          "the coefficient of variation of the gaps between arrivals (1: Poisson; > 1 burstier)")}};
  return {"gamma", "gamma gaps at `arrival_rate` per second with coefficient of variation `cv`", &table,
          [](const Params& p) -> std::shared_ptr<const Arrivals> { return std::make_shared<GammaArrivals>(p.real("cv")); }};
}

}  // namespace lightcode::serve
