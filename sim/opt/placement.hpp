#pragma once
// Selection over a whole graph: one exact solve per subgraph (selection.hpp), subgraphs in
// order so that inputs from earlier subgraphs are fixed costs. Identical subgraph problems
// (same candidates, costs and edges, which is what "same kinds, shapes, edges and candidate
// sets" amounts to) are solved once: the cache is keyed on the problem itself, so a hit
// gives exactly the placement a fresh solve would.
// Fused groups (stacked_graph.hpp): all members take the group's candidate or none does
// (forbidden pairs between consecutive members); an edge inside a chosen group moves nothing
// and a tensor the group already reads moves once; a group a cut splits is not a choice
// (partition_for(stacks) never splits one).
#include <cstdint>
#include <vector>

#include "sim/opt/bounded_selection.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/selection.hpp"
#include "sim/opt/stacked_graph.hpp"

namespace lightcode::opt {

struct Placement {
  std::vector<int32_t> choice;  // per node: index into its candidates
  int32_t solved = 0;           // subgraph problems solved
  int32_t reused = 0;           // subgraph problems answered from the cache
  size_t peak_states = 0;       // widest DP table of the subgraphs solved (Selection::peak_states)
  // With a bound (bounded_selection.hpp): the subgraphs solved whose fronts were thinned, and
  // the largest certified bound on a subgraph's objective above its exact optimum (0: exact).
  int32_t thinned = 0;
  double gap_bound = 0.0;
};

// `watts` as in select_exact: a power the energy and EDP objectives charge for the sum of
// times (the joint search, sim/joint, sweeps it). `bound`: each subgraph solved by
// select_bounded (kExactSelection: select_exact, the answer every profile reports).
Placement place(const StackedGraph& stacks, const Partition& part, Objective objective,
                bool use_cache = true, double watts = 0.0, const SelectionBound& bound = kExactSelection);

// place(stacks, part, objective, true, w) for each power w of `watts`, the same placements (and
// counts), in one pass over the subgraphs: the powers whose subgraph problems are equal are
// solved together (select_exact_many).
std::vector<Placement> place_at_powers(const StackedGraph& stacks, const Partition& part, Objective objective,
                                       const std::vector<double>& watts);

// The problems place() solves, one per subgraph with variables, in order, the producers
// outside each placed as `choice` says (a placement's, for the same answers): for tests and
// measurements of a bound against the exact selection.
std::vector<SelectionProblem> subgraph_problems(const StackedGraph& stacks, const Partition& part,
                                                const std::vector<int32_t>& choice);

}  // namespace lightcode::opt
