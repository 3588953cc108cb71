#pragma once
// Placements found once per batch class and reused, so that a serving run or a generation,
// which price thousands of graphs that differ only in their tensors' sizes, search few of them.
// OUR APPROXIMATION, after the observation that which op runs where changes with load only at
// a few points (the host CPU taking short-context attention, a photonic unit taking products
// only above some size), not with every token.
//
// The caller names, for each graph, a representative: a graph of the same structure at sizes
// of its choosing (serving rounds every length down to a power of two), built
// and searched (joint::place_with_splits) once per representative. A graph takes its
// representative's placement when their structures are equal (for every node its kind and
// inputs, and for every candidate of the stacked graph its unit, algorithm, fused group and
// shared reads, with the groups' members: a batch of the same number of sequences, each a
// decode, a chunk or a whole prompt as before); when the representative split a product, the
// same product is split between the same two units at the ratio balanced for the graph's sizes
// (opt::balanced_split). The placement is then only expanded, scheduled and charged, so a
// reused answer is exactly what the pipeline gives for that placement (time to the picosecond).
// Guard: list scheduling from that placement at the graph's sizes (earliest_finish.hpp: cheap,
// and aware of the units' overlap, which is what moves with load: the host CPU taking
// short-context attention beside the GPU). When it does better by more than kReuseTolerance, the
// sizes have moved the answer and the graph is searched itself. So an answer depends on the
// graph and its representative only, never on what was asked before.
// Measured against a fresh search at every size (tests/bench/bench_serve.cpp
// placement_reuse_llama; docs/PERFORMANCE.md "Placement reuse").
//
// One instance serves one system, objective, scheduling policy and search options (the caller's
// to keep fixed). place() may be called from several threads at once (generation plans steps
// ahead on threads): a representative is searched once, by the first thread that needs it,
// while the others that need one wait; the answers are the same whatever the order.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sim/joint/split_search.hpp"

namespace lightcode::joint {

// How much better (relative, on the objective) list scheduling from a reused placement must do
// at the new sizes for the class to be searched again.
inline constexpr double kReuseTolerance = 0.01;

class PlacementReuse {
 public:
  using Build = std::function<std::unique_ptr<const ir::Graph>()>;
  // The answer for `graph`: its representative's placement (searched on first use, built by
  // `build_representative`, known by `representative`) when it carries over, else its own
  // search. Throws lightcode::Error as place_with_splits.
  Answer place(std::unique_ptr<const ir::Graph> graph, const std::vector<int64_t>& representative,
               const Build& build_representative, const hw::System& system, opt::Objective objective,
               const sched::SchedulingPolicy& policy, const JointOptions& options = {});

  int64_t searches() const { return searches_; }  // graphs placed by the joint search
  int64_t reuses() const { return reuses_; }      // graphs given a representative's placement
  size_t representatives() const {
    const std::lock_guard<std::mutex> lock(known_mutex_);
    return known_.size();
  }

 private:
  struct Split {
    ir::NodeId product = -1;
    hw::UnitType unit_a = 0, unit_b = 0;
    std::vector<int64_t> structure;  // of the split graph's stacks
  };
  struct Known {
    std::vector<int64_t> structure;  // of the representative's stacks (unsplit)
    std::optional<Split> split;
    std::vector<int32_t> choice;  // on the split graph when there is one
    std::string origin;
    double edp_seed_gap_bound = 0.0;
  };
  Answer search(std::unique_ptr<const ir::Graph> graph, const hw::System& system, opt::Objective objective,
                const sched::SchedulingPolicy& policy, const JointOptions& options, Known* known);
  // `a` holds the graph with its stacks and partition; true with a.result (and the split graph)
  // filled when the representative's placement carries over to it.
  bool reuse(const Known& known, Answer& a, opt::Objective objective, const sched::SchedulingPolicy& policy) const;

  // Known entries never change once inserted (std::map keeps their addresses), so a thread
  // reads its entry without the lock.
  mutable std::mutex known_mutex_;
  std::map<std::vector<int64_t>, Known> known_;
  std::atomic<int64_t> searches_{0}, reuses_{0};
};

// The structure part of a graph's class (see above), as numbers; equal for two stacked graphs
// exactly when a placement of one is a placement of the other.
std::vector<int64_t> placement_structure(const opt::StackedGraph& stacks);

}  // namespace lightcode::joint
