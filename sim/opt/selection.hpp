#pragma once
// Exact selection of one candidate per stack in a subgraph. The problem is a DAG of variables
// (stacks) in topological order, each with per-candidate node costs, and edges with a cost per
// (producer candidate, consumer candidate) pair. The objective is the sum of node and edge
// costs in time, or in energy, or the energy-delay product of those sums.
//
// Method: dynamic programming over the topological order (variable elimination in the
// min-sum semiring). The state is the choice of every "open" variable: already decided, with
// more than one candidate, and still read by a later variable. Between articulation points a
// transformer is narrow, so the state stays tiny; the cost is polynomial where the original
// enumerated paths. EDP keeps the Pareto front of (time, energy) per state, which contains
// the product's minimum because the product grows with either sum. A step's moves are priced
// once per (state, candidate), and each front is found with one sort of the step's offers (the
// front, in the order, that offering them one at a time leaves: a batch's fronts hold
// thousands). Fronts may be thinned, with a certified bound on the answer's distance to the
// optimum (select_thinned; bounded_selection.hpp).
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/quantity.hpp"
#include "sim/opt/objective.hpp"

namespace lightcode::opt {

struct PairCost {
  Time time;
  double energy_pj = 0.0;
  // The pair of choices (or, as a node cost, the choice) is not allowed: a fused group chosen by
  // some of its members only, or one that a cut splits.
  bool forbidden = false;
};

struct SelectionProblem {
  struct Edge {
    int from = 0;  // variable index, < to
    int to = 0;
    std::vector<PairCost> cost;  // [from candidate * candidates(to) + to candidate]
  };
  std::vector<std::vector<PairCost>> node_cost;  // [variable][candidate]; none empty
  std::vector<Edge> edges;
};

struct Selection {
  std::vector<int> choice;  // candidate index per variable
  Time time;                // sum of chosen node and edge times
  double energy_pj = 0.0;   // sum of chosen node and edge energies
  size_t peak_states = 0;   // widest DP table, for diagnostics
  bool feasible = true;     // no forbidden pair (evaluate())
  // select_thinned: the DP steps whose fronts were thinned, and a certified bound on the
  // answer's distance to the exact optimum: objective <= (1 + gap_bound) x the exact one's
  // (0 when nothing was thinned: the answer is the exact one).
  int thinned_steps = 0;
  double gap_bound = 0.0;
};

// How select_thinned thins the EDP fronts (bounded_selection.hpp states the bound it gives):
// a state's front of more than `above` alternatives keeps, of those within a factor (1 + step)
// of energy of one kept at no more time, only that one. step 0: no thinning (select_exact).
struct FrontThinning {
  double step = 0.0;
  size_t above = 0;
};

// Thrown by select_exact when a sum of energies is not finite (costs from extreme energy
// parameters, each finite, whose sum is not): the variable and candidate whose cost made it
// so, for the caller to name the op and the unit (opt::place does).
class SelectionOverflow : public Error {
 public:
  SelectionOverflow(int variable_index, int candidate_index, const std::string& message)
      : Error(message), variable(variable_index), candidate(candidate_index) {}
  int variable;
  int candidate;
};

// Objective value of an assignment (also the reference for the tests).
// Time counts in picoseconds, as the objectives are defined (objective.hpp). `watts` is a
// power drawn for as long as the time lasts (static power: 1 W = 1 pJ/ps): the energy and EDP
// objectives count energy_pj + watts x time; time ignores it.
double objective_value(Objective o, Time time, double energy_pj, double watts = 0.0);
Selection evaluate(const SelectionProblem& p, const std::vector<int>& choice);

// The exact optimum. Ties go to the assignment found first in candidate order, so equal
// inputs give equal placements. Sums that cannot be represented are lightcode::Errors: of
// energies, a SelectionOverflow; of times, the time limit's error; an objective that is not
// finite for any assignment (static power x time beyond a double), an Error saying so.
Selection select_exact(const SelectionProblem& p, Objective objective, double watts = 0.0);
// select_exact at each of `watts`, the same answers (every field) in one pass: the states and
// their moves are shared, each power keeps its own alternative per state (time and energy;
// edp solves each power alone). What the joint search's energy seeds solve (a batch graph at
// ten powers).
std::vector<Selection> select_exact_many(const SelectionProblem& p, Objective objective,
                                         const std::vector<double>& watts);
// The same DP with thinned EDP fronts (time and energy keep one alternative per state and are
// never thinned). Besides the answer it keeps, per alternative, the least energy of the
// partial assignments dropped for it (each taking at least its time), which gives a lower
// bound on the exact optimum and so Selection::gap_bound.
Selection select_thinned(const SelectionProblem& p, Objective objective, double watts, const FrontThinning& thin);
// Every assignment, for tests on small problems.
Selection select_brute_force(const SelectionProblem& p, Objective objective, double watts = 0.0);

}  // namespace lightcode::opt
