#pragma once
// The stacked graph: every op of an ir::Graph with its candidates on a system's hardware (one
// per unit type and algorithm able to run it, each with its arithmetic Cost), and transfer
// costs for each edge and pair of candidate unit types. Built once per (graph, system); the
// partitioner, selector, expansion and schedulers read it.
// Fused candidates (profiles that fuse): the groups the fusion rules of the system's units propose
// (sim/ir/fusion.hpp) are stacks of their own. Every member of group g gets one candidate per
// unit type fusing g, with `group` = g; the group's cost sits on its anchor's candidate (the
// other members' cost nothing), so a selection that gives every member that candidate pays
// the fused kernel once. Consistency (all members or none) is the selector's constraint
// (placement.cpp); edges between members of one chosen group move nothing.
#include <cstdint>
#include <utility>
#include <vector>

#include "hw_models/cost.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/fusion.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::opt {

struct Candidate {
  hw::UnitType unit = 0;
  hw::AlgorithmId algorithm = 0;
  hw::Cost cost;
  int32_t group = -1;  // index into StackedGraph::groups(), or -1 for the op alone
  // A group candidate: bit p set when the node's input p is a shared read (shared_read()),
  // for inputs 0..63 (later inputs are looked up).
  uint64_t shared_reads = 0;
};

// A fusion group and what running it on each unit type that fuses it costs.
struct FusedStack {
  ir::FusedKernel kernel;
  std::vector<std::pair<hw::UnitType, hw::Cost>> costs;  // by unit type
  bool has(ir::NodeId id) const;                         // member?
};

class StackedGraph {
 public:
  // Throws lightcode::Error naming the op and the system when no unit can run an op, and
  // naming the op and the unit when a candidate's time or energy cannot be represented.
  StackedGraph(const ir::Graph& graph, const hw::System& system);

  const ir::Graph& graph() const { return *graph_; }
  const hw::System& system() const { return *system_; }
  size_t size() const { return graph_->size(); }

  // Candidates of node `id`, in unit-type order, then algorithm order.
  const Candidate* begin(ir::NodeId id) const { return &candidates_[offsets_[static_cast<size_t>(id)]]; }
  const Candidate* end(ir::NodeId id) const { return &candidates_[offsets_[static_cast<size_t>(id) + 1]]; }
  int candidate_count(ir::NodeId id) const {
    return static_cast<int>(offsets_[static_cast<size_t>(id) + 1] - offsets_[static_cast<size_t>(id)]);
  }
  const Candidate& candidate(ir::NodeId id, int k) const { return *(begin(id) + k); }

  // The tensor input `position` of `consumer` moves: the producer output it reads (a take's
  // table: only the rows it gathers), or in the `lightcode` profile the producer's output 0
  // (the original's rule).
  const ir::TensorType& edge_tensor(ir::NodeId consumer, int position) const;
  // Throws lightcode::Error naming the consumer when the cost cannot be represented.
  hw::Cost edge_cost(ir::NodeId consumer, int position, hw::UnitType from, hw::UnitType to) const {
    try {
      return system_->transfers().estimate(edge_tensor(consumer, position), from, to);
    } catch (const Error& e) {
      edge_error(e, consumer, position, from, to);
    }
  }

  const std::vector<FusedStack>& groups() const { return groups_; }
  const FusedStack& group(int32_t g) const { return groups_[static_cast<size_t>(g)]; }
  // Whether input `position` of member `consumer` of group g reads a tensor an earlier input of
  // the group already reads (the kernel loads it once: that edge moves nothing).
  bool shared_read(int32_t g, ir::NodeId consumer, int position) const;
  // The same for a candidate of `consumer` (false for a single-op candidate), in O(1).
  bool shared_read(const Candidate& c, ir::NodeId consumer, int position) const {
    if (c.group < 0) return false;
    if (position < 64) return ((c.shared_reads >> position) & 1U) != 0;
    return shared_read(c.group, consumer, position);
  }
  // What group g's kernel costs on `unit` (which fuses it).
  const hw::Cost& kernel_cost(int32_t g, hw::UnitType unit) const;

  // Nodes some photonic unit could run (the seed table's "possible photonic").
  bool photonic_possible(ir::NodeId id) const;

 private:
  [[noreturn]] void edge_error(const Error& e, ir::NodeId consumer, int position, hw::UnitType from,
                               hw::UnitType to) const;
  const ir::Graph* graph_;
  const hw::System* system_;
  std::vector<uint32_t> offsets_;
  std::vector<Candidate> candidates_;
  std::vector<FusedStack> groups_;
};

}  // namespace lightcode::opt
