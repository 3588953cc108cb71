#pragma once
// The original LightCode's partition, as ../shared/reference/LIGHTCODE_MODEL.md ("Pipeline",
// step 1) states it from running the original's code next to this project:
//  - a Kahn sort in layers over every node (ASAP: a node sits one layer after its latest
//    parent; graph inputs in layer 0);
//  - a layer's live set is its nodes plus every node of an earlier layer with a consumer in a
//    later layer than this one (outputs still unconsumed);
//  - a layer is a cut when its live set, less graph inputs and less "residual" nodes, holds
//    exactly one op and that op has at least two parents that are not graph inputs.
//    "Residual" nodes are only the children of the `scatter_nd` op (kind `nd`: Llama's mask
//    slices); GPT-2's residual adds are ordinary;
//  - groups follow the ALAP order (the reverse Kahn order of the transposed graph); graph
//    inputs and graph outputs belong to no group; consecutive groups share their cut op, so
//    each cut op is a member of two subgraphs (the original's quirk).
// Counts it gives: 28 subgraphs for GPT-2 prefill and decoder, 66 for Llama-2-7B prefill.
// "Graph outputs" are the nodes no other node reads (read from the original's code:
// lightcode/stacked_graph.py, Graph._get_out; it never reads the JSON `heads`). Inferred where
// the page is silent (docs/LIGHTCODE_PROFILE.md): ties in the ALAP order go by node id.
#include <cstdint>
#include <vector>

#include "sim/ir/graph.hpp"

namespace lightcode::opt {

struct OriginalPartition {
  std::vector<ir::NodeId> cut_ops;              // in graph order
  std::vector<std::vector<ir::NodeId>> groups;  // each in ALAP order; a cut op ends one group
                                                // and begins the next
  std::vector<int32_t> to_sink;  // per node: its Kahn layer in the transposed graph (longest path to a sink)
  int32_t count() const { return static_cast<int32_t>(groups.size()); }
};

OriginalPartition original_partition(const ir::Graph& graph);
// The same as a Partition (partition.hpp) the optimizer runs on: members of each group in
// node order, graph inputs in the group of their first consumer, the graph outputs (nodes
// nothing reads) in the group of their latest producer and marked outside (no unit), head[k]
// the cut op group k repeats, node_list[k] the group's node list as the original's scheduler
// walks it (lightcode/graph_transformations.py, _scheduling_dijkstra with
// get_node_groups(asap=False)); an input crosses when its producer (not a graph input) is not a
// member of the consumer's group.
struct Partition;
Partition original_partition_groups(const ir::Graph& graph);

}  // namespace lightcode::opt
