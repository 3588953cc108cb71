#pragma once
// Splitting one matrix product's output rows across two units, as a graph rewrite, and the
// split ratio that balances the two halves' finish times.
//
// split_rows(graph, p, rows_a) copies `graph` with product p (dense [.., M, K] x [N, K] or
// matmul [B.., M, K] x [B.., N, K] -> [.., M, N]) replaced, at p's position, by
//   p      slice    "<name>/rows_a_slice"  input 0 rows [0, rows_a) along M (second-to-last)
//   p + 1  product  "<name>/rows_a"        slice a x input 1      -> [.., rows_a, N]
//   p + 2  slice    "<name>/rows_b_slice"  input 0 rows [rows_a, M)
//   p + 3  product  "<name>/rows_b"        slice b x input 1      -> [.., M - rows_a, N]
//   p + 4  concat   "<name>/concat"        the two results along M -> p's output
// (split_ids() gives these ids). Nodes after p move up by 4; every former consumer and graph
// head of p reads the concatenate. The halves keep p's kind, attrs and required bits; slices
// and the concatenate carry `axis` (and `begin`, `end`) attrs for readers of the graph: no
// cost model reads them today. The input rule and source are kept; a valid graph gives a
// valid graph.
//
// balanced_split(stacks, p, unit_a, unit_b): where to cut. Half x with m rows is ready for the
// concatenate, which runs on unit_b, after t_x(m), from when p's inputs exist (consumer-side:
// each input comes from whichever unit its producer may run on delivers it soonest; the slice
// runs on whichever unit delivers its rows soonest, its own time included):
//   electronic x:  max(slice of m rows -> x, input 1 -> x) + product(m) on x + result x -> b
//   photonic x:    its photonic expansion, the plan opt::expand emits (photonic_expansion.hpp),
//                  S the staging memory: max(slice -> S, input 1 -> S) + split + operands
//                  S -> x (one transfer) + its 2-D products on x (in rounds over x's
//                  instances) + result x -> S + merge + result S -> b   (its conversions are
//                  inside its estimate)
// Each step is the system's cost model or transfer model (a product's first algorithm);
// result b -> b is whatever the system charges (nothing over a GPU's self-link).
// Linearised from two row counts,
//   t_x(m) ~ c_x + m s_x,   s_x = (t_x(M) - t_x(1)) / (M - 1),   c_x = t_x(1) - s_x,
// the two halves are ready together when t_a(m) = t_b(M - m):
//   c_a + m s_a = c_b + (M - m) s_b   <=>   m* = (c_b + s_b M - c_a) / (s_a + s_b),
// clamped to [1, M - 1] (M / 2 when the slopes do not add up to more than zero). The real
// estimates are not linear (tiles, waves, link latency), so rows_a minimises
// max(t_a(m), t_b(M - m)) over the integers near m* (a window of +-8 rows) and over a coarse
// bracket of [1, M - 1] narrowed 8-fold per round down to 64 rows, then searched row by row;
// ties go to the row nearest m*. Times in ps.
// Not modelled: the halves, their slices and the concatenate queueing on one unit, the
// concatenate's own time (the same for every m), and where the producers really run.
//
// force_unit(stacks, placement, node, unit): puts `node` on its first single-op candidate on
// `unit` (a lightcode::Error naming the node and unit when it has none). When the node was in
// a chosen fused group, the group's other members leave it for their own single-op candidate
// on the group's unit (or their first single-op one), so the placement stays a cover.
#include <cstdint>

#include "hw_models/transfer_model.hpp"
#include "sim/core/quantity.hpp"
#include "sim/ir/graph.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"

namespace lightcode::opt {

// Ids of the nodes split_rows puts where product `product` was.
struct SplitIds {
  ir::NodeId slice_a, rows_a, slice_b, rows_b, concat;
};
inline SplitIds split_ids(ir::NodeId product) {
  return {product, product + 1, product + 2, product + 3, product + 4};
}

// Throws lightcode::Error naming the node unless it is a dense or matmul whose input 0 and
// output have M >= 2 rows, and 0 < rows_a < M.
ir::Graph split_rows(const ir::Graph& graph, ir::NodeId product, int64_t rows_a);

struct SplitPlan {
  hw::UnitType unit_a = 0, unit_b = 0;
  int64_t rows = 0;                     // M
  int64_t rows_a = 0;                   // refined on the real estimates; unit_b runs rows - rows_a
  double closed_form_rows_a = 0.0;      // m*, clamped
  double fixed_a = 0.0, slope_a = 0.0;  // c_a (ps), s_a (ps per row)
  double fixed_b = 0.0, slope_b = 0.0;
  Time finish_a, finish_b;  // t_a(rows_a), t_b(rows - rows_a)
};

// Throws lightcode::Error (naming the node and units) when split_rows would, when the units
// are equal, or when either cannot run the product or receive its operands.
SplitPlan balanced_split(const StackedGraph& stacks, ir::NodeId product, hw::UnitType unit_a,
                         hw::UnitType unit_b);

void force_unit(const StackedGraph& stacks, Placement& placement, ir::NodeId node,
                hw::UnitType unit);

}  // namespace lightcode::opt
