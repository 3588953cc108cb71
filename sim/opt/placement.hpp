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

#include "sim/opt/partition.hpp"
#include "sim/opt/selection.hpp"
#include "sim/opt/stacked_graph.hpp"

namespace lightcode::opt {

struct Placement {
  std::vector<int32_t> choice;  // per node: index into its candidates
  int32_t solved = 0;           // subgraph problems solved
  int32_t reused = 0;           // subgraph problems answered from the cache
  size_t peak_states = 0;       // widest DP table of the subgraphs solved (Selection::peak_states)
};

// `watts` as in select_exact: a power the energy and EDP objectives charge for the sum of
// times (the joint search, sim/joint, sweeps it).
Placement place(const StackedGraph& stacks, const Partition& part, Objective objective,
                bool use_cache = true, double watts = 0.0);

}  // namespace lightcode::opt
