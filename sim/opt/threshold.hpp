#pragma once
// Per-op photonic thresholds (the original's "threshold search", LIGHTCODE_MODEL.md pipeline
// item 6): for every op of a system with a photonic candidate and a non-photonic one, the
// smallest sequence length at which the photonic candidate becomes strictly cheaper than the
// best non-photonic one, for an objective.
//
// Only single-op candidates count (fused kernels are not one op's placement). An op's cost for
// a candidate on unit u is its node cost plus the costs of its input edges
// (producer -> u) and output edges (u -> consumer), as StackedGraph gives them. The neighbours
// are assumed to stay where they would run electronically (their cheapest non-photonic
// candidate by node cost): the question is "does moving this one op to the PHU pay off?", which
// is what a runtime deciding op by op needs. Values: time in ps, energy in pJ, edp in ps * pJ
// (opt::objective_value of the summed time and energy).
//
// Search: instead of scanning every length (the original scanned 0..4095), the graph is built
// at a coarse geometric grid of lengths; ops are grouped by kind and by their costs on that
// grid (ops with the same kind and shapes pattern across layers cost the same at every length);
// each group's flips are then located by integer bisection inside grid brackets whose ends
// disagree. Limitation: a flip and a flip back inside one grid bracket are not seen.
// The opt layer does not load models: the caller passes the graph builder (frontend::load_model
// in sim/sweep/crossover.cpp). Graphs at all lengths must have the same nodes in the same order.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/ir/graph.hpp"
#include "sim/opt/selection.hpp"
#include "sim/opt/stacked_graph.hpp"

namespace lightcode::opt {

// One op at one length: its cheapest photonic and cheapest non-photonic candidate, each with
// node + in/out edge costs, as objective values.
struct OpComparison {
  ir::NodeId node = 0;
  double photonic = 0.0;
  double electronic = 0.0;
  bool photonic_wins() const { return photonic < electronic; }  // ties stay electronic
};

// Every op with both kinds of candidate, in node order.
std::vector<OpComparison> compare_photonic(const StackedGraph& stacks, Objective objective);

struct ThresholdGroup {
  std::string kind;                // op kind ("dense", "matmul", ...)
  std::vector<std::string> ops;    // member op names, in node order
  std::vector<ir::NodeId> nodes;   // their ids (the first is the representative)
  // First length in [lo, hi] at which the photonic candidate is strictly cheaper; nullopt when
  // it never is. When it already is at lo, threshold == lo and from_start is set.
  std::optional<int64_t> threshold;
  bool from_start = false;
  std::vector<std::pair<int64_t, int64_t>> photonic_ranges;  // [from, to] where photonic wins
  // The representative's values at the threshold (and at threshold - 1 when > lo).
  double photonic_at = 0.0, electronic_at = 0.0;
  double photonic_before = 0.0, electronic_before = 0.0;
};

struct ThresholdReport {
  std::string system;  // system name
  Objective objective = Objective::time;
  int64_t lo = 0, hi = 0;
  std::vector<ThresholdGroup> groups;  // by threshold (never-photonic last), then node order
  size_t lengths_probed = 0;           // graphs built
};

using GraphAtLength = std::function<ir::Graph(int64_t length)>;

// Throws lightcode::Error for an empty or inverted range, or graphs that differ in structure.
ThresholdReport find_thresholds(const GraphAtLength& graph_at, const hw::System& system,
                                Objective objective, int64_t lo, int64_t hi, int grid_points = 20);

// The coarse grid both searches use: lo, hi and ~`points` lengths spaced geometrically in
// (length - lo + 1) between them, ascending and distinct.
std::vector<int64_t> geometric_grid(int64_t lo, int64_t hi, int points);

}  // namespace lightcode::opt
