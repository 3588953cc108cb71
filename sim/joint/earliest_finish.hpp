#pragma once
// A placement by list scheduling on the unexpanded graph (HEFT's rule, Topcuoglu et al. 2002):
// ops in decreasing upward rank (each op's fastest candidate plus its longest path to a sink;
// ties by id, which keeps a topological order), each given the candidate whose estimated finish
// is earliest: its inputs' arrival (producer's finish + the transfer to the candidate's unit)
// and the earliest free instance of that unit, plus the candidate's time. With `watts` > 0 a
// candidate scores its dynamic energy (op and input transfers) + watts x how far it pushes the
// latest finish so far, the static energy a longer run costs (1 W = 1 pJ/ps).
// Only ops whose `seed` choice is a single-op candidate are re-decided, among single-op
// candidates; fused groups the seed chose stay as they are, so the result is a consistent
// cover. The estimate is only a generator: the joint search times every placement exactly.
#include <cstdint>
#include <vector>

#include "sim/opt/stacked_graph.hpp"

namespace lightcode::joint {

std::vector<int32_t> earliest_finish_placement(const opt::StackedGraph& stacks,
                                               const std::vector<int32_t>& seed, double watts);

}  // namespace lightcode::joint
