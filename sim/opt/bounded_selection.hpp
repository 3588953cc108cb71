#pragma once
// Selection with bounded Pareto fronts: the EDP objective's DP (selection.hpp) keeps a front
// of (time, energy) alternatives per state, and over a batch's parallel attention chains those
// fronts hold thousands of alternatives per state (600,916 in all at once for 32 Llama-2-7B
// decodes: 53 s for one placement). select_bounded thins every front of more than
// `front_limit` alternatives to one alternative per factor (1 + step) of energy (an
// alternative dropped for one kept at no more time and at most (1 + step) times its energy:
// one-sided epsilon-dominance) and keeps, with each kept alternative, the least energy of those
// dropped for it. That gives, at the end, a lower bound on the exact optimum, so every answer
// carries a certified bound on its distance to it (Selection::gap_bound).
//
// The contract: the answer's objective is at most (1 + tolerance) times the exact optimum's.
// The first solve thins at step = tolerance; when its certified bound exceeds the tolerance
// the problem is solved again at a step kRetryDivisor times finer, and after kRetries such
// solves exactly. A problem whose fronts never exceed front_limit is solved exactly, the same
// answer bit for bit (the bound is not hit); time and energy keep one alternative per state
// and are never thinned. tolerance 0 is the exact selection (kExactSelection).
//
// Effect, measured (docs/PERFORMANCE.md, "Bounded selection (issue 24)"): MEASURED-HERE.
#include <cstddef>

#include "sim/opt/selection.hpp"

namespace lightcode::opt {

struct SelectionBound {
  double tolerance = 0.0;     // relative, on the objective; 0: exact
  size_t front_limit = 0;     // fronts of at most this many alternatives are never thinned
  bool exact() const { return tolerance <= 0.0; }
};

inline constexpr SelectionBound kExactSelection{};
// The joint search's EDP seed (sim/joint): 0.1 % on the seed's objective, fronts above 64
// alternatives thinned. Chosen from the measurements above: GPT-2 batch-1 prefill fronts
// (at most 27) are never thinned; Llama-2-7B's 32-decode batch places in MEASURED s.
inline constexpr SelectionBound kBoundedSelection{0.05, 8};

inline constexpr double kRetryDivisor = 16.0;
inline constexpr int kRetries = 2;

// Throws as select_exact does.
Selection select_bounded(const SelectionProblem& p, Objective objective, double watts,
                         const SelectionBound& bound);

}  // namespace lightcode::opt
