#pragma once
// Selection with bounded Pareto fronts: the EDP objective's DP (selection.hpp) keeps a front
// of (time, energy) alternatives per state, and over a batch's parallel attention chains those
// fronts hold thousands of alternatives per state (600,916 in one DP step for 32 Llama-2-7B
// decodes: 55 s of CPU for one placement). select_bounded thins every front of more than
// `front_limit` alternatives (FrontThinning, selection.hpp): two-sided epsilon-dominance with
// steps of `tolerance` times a lower bound on any assignment's energy and on its time (the
// sums of each variable's least node cost). Each kept alternative carries the lower corner
// (least time, least energy) of those dropped for it, which gives a lower bound on the exact
// optimum, so every answer has a certified bound on its distance to it (Selection::gap_bound).
//
// The contract: the answer's objective is at most (1 + tolerance) times the exact optimum's.
// The first solve thins at step = tolerance; when its certified bound exceeds the tolerance
// the problem is solved again at a step kRetryDivisor times finer, and after kRetries such
// solves exactly. A problem no front of which exceeds front_limit is solved exactly, the same
// answer bit for bit (the bound is not hit); time and energy keep one alternative per state
// and are never thinned. tolerance 0 is the exact selection (kExactSelection).
//
// Effect, measured (docs/PERFORMANCE.md, "Bounded selection (issue 24)"; h100_sxm, the EDP
// seed's placement, CPU time exact -> bounded, and the largest gap to the exact answer over
// the graph's subgraph problems): Llama-2-7B 8 decodes at context 512 844 -> 118 ms (gap
// 1.02 %, certified 2.1 %), 32 decodes 54.6 -> 0.58 s (gap 1.54 %, certified 3.6 %); GPT-2 32
// decodes 502 -> 175 ms (gap 0); GPT-2 8 decodes and a prefill chunk: gap 0.25 %. Every
// shipped scenario's figures are unchanged.
#include <cstddef>

#include "sim/opt/selection.hpp"

namespace lightcode::opt {

struct SelectionBound {
  double tolerance = 0.0;     // relative, on the objective; 0: exact
  size_t front_limit = 0;     // fronts of at most this many alternatives are never thinned
  bool exact() const { return tolerance <= 0.0; }
};

inline constexpr SelectionBound kExactSelection{};
// The joint search's EDP seed (sim/joint): within 5 % of the exact sum EDP, fronts above 8
// alternatives thinned. Chosen from the measurements above: at 1 % the 32-decode Llama-2-7B
// placement still took 30 s (342,192 alternatives); at 5 % 0.58 s (2,836), its certified
// gap 3.6 %.
inline constexpr SelectionBound kBoundedSelection{0.05, 8};

inline constexpr double kRetryDivisor = 16.0;
inline constexpr int kRetries = 2;

// Throws as select_exact does.
Selection select_bounded(const SelectionProblem& p, Objective objective, double watts,
                         const SelectionBound& bound);

}  // namespace lightcode::opt
