#pragma once
// Splitting one matrix product between a photonic unit and another unit where that lowers the
// objective (the seed's "split between Photonics and GPU or Photonics and CPU"). After the
// joint answer on the graph (joint_placement.hpp), every product whose chosen candidate takes
// at least kSplitShare of the answer's makespan (an op that runs mostly alone: an articulation)
// and that a photonic unit and an electronic unit can both run is split by rows at the ratio
// that balances the halves' finish times (opt::balanced_split), its halves pinned to their
// units, and the split graph searched again with the same budget; the best answer over the
// graphs wins, ties to the unsplit graph. At most kSplitTries products are tried, the longest
// first, each against the answer on the original graph (one split per answer).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sim/joint/joint_placement.hpp"
#include "sim/opt/split_product.hpp"

namespace lightcode::joint {

inline constexpr double kSplitShare = 0.1;
inline constexpr int kSplitTries = 2;

struct SplitDone {
  std::string product;  // the original product's name
  opt::SplitPlan plan;
};

// The graph the answer places (the given one, or a split copy) with its stacks and partition:
// held by pointer, since the stacks refer to the graph.
struct Answer {
  std::unique_ptr<const ir::Graph> graph;
  std::unique_ptr<const opt::StackedGraph> stacks;
  opt::Partition part;
  JointResult result;
  std::optional<SplitDone> split;
  int split_tries = 0;  // split graphs searched
};

// Throws lightcode::Error as place_jointly does.
Answer place_with_splits(std::unique_ptr<const ir::Graph> graph, const hw::System& system,
                         opt::Objective objective, const sched::SchedulingPolicy& policy,
                         const JointOptions& options = {});

}  // namespace lightcode::joint
