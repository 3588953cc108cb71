#pragma once
// The stacked graph: every op of an ir::Graph with its candidates on a system's hardware (one
// per unit type and algorithm able to run it, each with its arithmetic Cost), and transfer
// costs for each edge and pair of candidate unit types. Built once per (graph, system); the
// partitioner, selector, expansion and schedulers read it.
#include <cstdint>
#include <vector>

#include "hw_models/cost.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::opt {

struct Candidate {
  hw::UnitType unit = 0;
  hw::AlgorithmId algorithm = 0;
  hw::Cost cost;
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

  // The tensor input `position` of `consumer` moves: the producer output it reads, or in the
  // `lightcode` profile the producer's output 0 (the original's rule).
  const ir::TensorType& edge_tensor(ir::NodeId consumer, int position) const;
  // Throws lightcode::Error naming the consumer when the cost cannot be represented.
  hw::Cost edge_cost(ir::NodeId consumer, int position, hw::UnitType from, hw::UnitType to) const {
    try {
      return system_->transfers().estimate(edge_tensor(consumer, position), from, to);
    } catch (const Error& e) {
      edge_error(e, consumer, position, from, to);
    }
  }

  // Nodes some photonic unit could run (the seed table's "possible photonic").
  bool photonic_possible(ir::NodeId id) const;

 private:
  [[noreturn]] void edge_error(const Error& e, ir::NodeId consumer, int position, hw::UnitType from,
                               hw::UnitType to) const;
  const ir::Graph* graph_;
  const hw::System* system_;
  std::vector<uint32_t> offsets_;
  std::vector<Candidate> candidates_;
};

}  // namespace lightcode::opt
