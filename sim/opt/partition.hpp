#pragma once
// Partition at articulation stacks, by a rule inferred from GPT-2's published figures (the
// original's own rule is original_partition.hpp; docs/LIGHTCODE_PROFILE.md). Operators
// (memory nodes left out) are layered "as late as possible": a sink sits in the last
// generation, every other op one generation before its earliest consumer. Edges spanning more than kLongEdgeSpan generations
// are residual-like (residual connections, KV-cache outputs): they are set aside while
// looking for cuts. A generation is an articulation when it holds a single op and no other
// op is live across it (has a consumer, by a short edge, in a later generation). Each
// articulation closes a subgraph. An edge that jumps over an articulation "crosses": the
// `lightcode` profile feeds it from the subgraph's start node, free; the default profile
// moves the real data from the producer's unit.
// Memory nodes belong to the subgraph of their first consumer.
#include <cstdint>
#include <string_view>
#include <vector>

#include "hw_models/profile.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::opt {

// Real intra-block skips in transformers span at most 7 generations (layer norm, attention
// branches); residual and cache-output edges span 25 or more in GPT-2. The bound sits between.
inline constexpr int kLongEdgeSpan = 16;

struct Partition {
  int32_t count = 0;                        // subgraphs
  // The original's rule (original_partition.hpp): subgraph k > 0 begins with the cut op that
  // ended subgraph k - 1 (head[k], else -1), which is a member of both; the graph outputs
  // (the nodes no other node reads) occupy no unit (outside[node]); node_list[k] is subgraph
  // k's node list without its start: the ops with no parent inside the group, then the other
  // ops, each part in the group's ALAP order. The original's scheduler places ready tasks in
  // that order (opt::Task::rank). Other rules leave node_list empty (ready tasks go in task order).
  std::vector<ir::NodeId> head;
  std::vector<uint8_t> outside;
  std::vector<std::vector<ir::NodeId>> node_list;
  std::vector<int32_t> subgraph_of;         // per node; -1 for a memory node nothing reads
  std::vector<int32_t> generation;          // per node; -1 for memory nodes
  std::vector<std::vector<ir::NodeId>> members;  // per subgraph: its nodes (memory included), by id
  // crossing[offset[node] + position]: input `position` of `node` jumps over an articulation.
  std::vector<uint32_t> input_offset;
  std::vector<uint8_t> crossing;

  bool crosses(ir::NodeId node, int position) const {
    return crossing[input_offset[static_cast<size_t>(node)] + static_cast<size_t>(position)] != 0;
  }
};

// Node sets that must stay in one subgraph (fused groups): no cut falls strictly inside the
// generations a set spans.
using Together = std::vector<std::vector<ir::NodeId>>;

Partition partition(const ir::Graph& graph, const Together& together = {});

// Partition rules, registered: `articulation` (partition() above, the default profile's) and
// `original` (the original LightCode's, original_partition.hpp). A profile names its rule.
struct PartitionRule {
  std::string_view name;
  std::string_view description;
  Partition (*make)(const ir::Graph& graph, const Together& together);
};
const std::vector<PartitionRule>& partition_rules();
const PartitionRule& partition_rule_named(std::string_view name);  // Error listing the names
// The graph cut by the rule `profile` names (no fused groups).
Partition partition_for(const ir::Graph& graph, const hw::Profile& profile);
// The stacked graph's graph cut by its profile's rule, every fused group inside one subgraph.
Partition partition_for(const StackedGraph& stacks);

}  // namespace lightcode::opt
