#pragma once
// Exact graph isomorphism for ir::Graph, up to node order and names: nodes match on kind,
// input types and output types; edges match on (producer output index -> consumer input
// position). Colour refinement on the disjoint union of both graphs, then individualisation
// with backtracking where colour classes stay larger than one node, and a full edge check of
// the final bijection; so "" means a verified isomorphism, not matching counts.
#include <string>

#include "sim/ir/graph.hpp"

namespace lightcode::ir {

// "" when a and b are isomorphic, otherwise a description of the first difference found.
std::string isomorphism_mismatch(const Graph& a, const Graph& b);

}  // namespace lightcode::ir
