#include "sim/opt/bounded_selection.hpp"

namespace lightcode::opt {

Selection select_bounded(const SelectionProblem& p, Objective objective, double watts,
                         const SelectionBound& bound) {
  if (bound.exact() || objective != Objective::edp) return select_exact(p, objective, watts);
  double step = bound.tolerance;
  for (int attempt = 0; attempt <= kRetries; ++attempt, step /= kRetryDivisor) {
    Selection s = select_thinned(p, objective, watts, FrontThinning{step, bound.front_limit});
    if (s.gap_bound <= bound.tolerance) return s;
  }
  return select_exact(p, objective, watts);
}

}  // namespace lightcode::opt
