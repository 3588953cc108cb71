#include "sim/opt/original_partition.hpp"

#include "sim/opt/partition.hpp"

#include <algorithm>
#include <numeric>

namespace lightcode::opt {
namespace {

// Kahn layers: layer(v) = 0 without predecessors, else 1 + the latest predecessor's layer.
std::vector<int32_t> asap_layers(const ir::Graph& g, const std::vector<ir::NodeId>& order) {
  std::vector<int32_t> layer(g.size(), 0);
  for (ir::NodeId id : order) {
    for (const ir::Input& in : g.node(id).inputs) {
      layer[static_cast<size_t>(id)] =
          std::max(layer[static_cast<size_t>(id)], layer[static_cast<size_t>(in.node)] + 1);
    }
  }
  return layer;
}

// `uses` = g.consumers(), computed once by the caller.
OriginalPartition partition_groups(const ir::Graph& g,
                                   const std::vector<std::vector<ir::Graph::Use>>& uses) {
  const size_t n = g.size();
  const std::vector<ir::NodeId> order = g.topological_order();
  const std::vector<int32_t> layer = asap_layers(g, order);
  auto is_input = [&](size_t i) { return g.nodes()[i].inputs.empty(); };
  auto is_output = [&](size_t i) { return uses[i].empty(); };
  std::vector<uint8_t> residual(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (g.nodes()[i].kind_name != "nd") continue;  // scatter_nd
    for (const auto& u : uses[i]) residual[static_cast<size_t>(u.consumer)] = 1;
  }

  // A node is live on layers [its layer, its last consumer's layer): still unconsumed after
  // each of them. Difference arrays of the count and of the id sum give the live set's size
  // per layer and, where it holds one node, which.
  int32_t depth = 0;
  for (int32_t l : layer) depth = std::max(depth, l);
  std::vector<int64_t> count_delta(static_cast<size_t>(depth) + 2, 0),
      id_delta(count_delta.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    if (is_input(i) || residual[i]) continue;
    int32_t last = layer[i];
    for (const auto& u : uses[i]) last = std::max(last, layer[static_cast<size_t>(u.consumer)] - 1);
    count_delta[static_cast<size_t>(layer[i])] += 1;
    count_delta[static_cast<size_t>(last) + 1] -= 1;
    id_delta[static_cast<size_t>(layer[i])] += static_cast<int64_t>(i);
    id_delta[static_cast<size_t>(last) + 1] -= static_cast<int64_t>(i);
  }
  OriginalPartition p;
  std::vector<uint8_t> is_cut(n, 0);
  int64_t live = 0, ids = 0;
  for (size_t l = 0; l <= static_cast<size_t>(depth); ++l) {
    live += count_delta[l];
    ids += id_delta[l];
    if (live != 1) continue;
    const auto only = static_cast<ir::NodeId>(ids);
    int parents = 0;
    for (const ir::Input& in : g.node(only).inputs)
      parents += is_input(static_cast<size_t>(in.node)) ? 0 : 1;
    if (parents >= 2) is_cut[static_cast<size_t>(only)] = 1;
  }

  // ALAP order: layers of the transposed graph, deepest first; ties by node id.
  std::vector<int32_t>& to_sink = p.to_sink;
  to_sink.assign(n, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<size_t>(*it);
    for (const auto& u : uses[i])
      to_sink[i] = std::max(to_sink[i], to_sink[static_cast<size_t>(u.consumer)] + 1);
  }
  std::vector<ir::NodeId> alap(n);
  std::iota(alap.begin(), alap.end(), 0);
  std::stable_sort(alap.begin(), alap.end(), [&](ir::NodeId a, ir::NodeId b) {
    return to_sink[static_cast<size_t>(a)] > to_sink[static_cast<size_t>(b)];
  });
  p.groups.emplace_back();
  for (ir::NodeId id : alap) {
    const auto i = static_cast<size_t>(id);
    if (is_input(i) || is_output(i)) continue;
    p.groups.back().push_back(id);
    if (is_cut[i]) p.groups.push_back({id});  // the next group begins with the same cut op
  }
  if (p.groups.back().size() <= 1 && p.groups.size() > 1 &&
      is_cut[static_cast<size_t>(p.groups.back()[0])]) {
    p.groups.pop_back();  // nothing after the last cut
  }
  for (size_t i = 0; i < n; ++i) {
    if (is_cut[i]) p.cut_ops.push_back(static_cast<ir::NodeId>(i));
  }
  return p;
}

}  // namespace

OriginalPartition original_partition(const ir::Graph& g) {
  return partition_groups(g, g.consumers());
}

Partition original_partition_groups(const ir::Graph& g) {
  const size_t n = g.size();
  const auto uses = g.consumers();
  const OriginalPartition groups = partition_groups(g, uses);
  Partition p;
  p.count = groups.count();
  p.subgraph_of.assign(n, -1);
  p.generation.assign(n, -1);
  p.outside.assign(n, 0);
  p.head.assign(static_cast<size_t>(p.count), -1);
  p.members.resize(static_cast<size_t>(p.count));
  for (int32_t k = 0; k < p.count; ++k) {
    for (ir::NodeId id : groups.groups[static_cast<size_t>(k)]) {
      p.members[static_cast<size_t>(k)].push_back(id);
      if (p.subgraph_of[static_cast<size_t>(id)] < 0) {
        p.subgraph_of[static_cast<size_t>(id)] = k;
      } else {
        p.head[static_cast<size_t>(k)] = id;  // the cut op the previous group ended with
      }
    }
  }
  // The node list of each group (the original's `_scheduling_dijkstra` over
  // get_node_groups(asap=False)): the ops with no parent inside the group, then the rest, in
  // the group's ALAP order. A graph input is nobody's parent here.
  p.node_list.resize(static_cast<size_t>(p.count));
  std::vector<int32_t> group_of(n, -1);  // the group being listed, for its members (its head too)
  for (int32_t k = 0; k < p.count; ++k) {
    const std::vector<ir::NodeId>& group = groups.groups[static_cast<size_t>(k)];
    for (ir::NodeId id : group) group_of[static_cast<size_t>(id)] = k;
    const auto has_parent_inside = [&](ir::NodeId id) {
      if (id == p.head[static_cast<size_t>(k)]) return false;  // its parents are in group k - 1
      for (const ir::Input& in : g.node(id).inputs) {
        if (group_of[static_cast<size_t>(in.node)] == k) return true;  // graph inputs are in no group
      }
      return false;
    };
    // get_node_groups(asap=False) lists the transposed graph's Kahn layers from the sinks: the
    // nearest to a sink first (ties by node id).
    std::vector<ir::NodeId> listed = group;
    std::stable_sort(listed.begin(), listed.end(), [&](ir::NodeId a, ir::NodeId b) {
      return groups.to_sink[static_cast<size_t>(a)] < groups.to_sink[static_cast<size_t>(b)] ||
             (groups.to_sink[static_cast<size_t>(a)] == groups.to_sink[static_cast<size_t>(b)] && a < b);
    });
    std::stable_partition(listed.begin(), listed.end(), [&](ir::NodeId id) { return !has_parent_inside(id); });
    p.node_list[static_cast<size_t>(k)] = std::move(listed);
  }
  // Graph outputs are the nodes no other node reads (the original's Graph._get_out: every
  // stack minus all parents; it never reads the JSON `heads`). They occupy no unit; as tasks
  // they join the group of their latest producer. Graph inputs join that of their first
  // consumer. (A sink's producers are never sinks, so node order will do.)
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (g.node(id).inputs.empty() || !uses[i].empty()) continue;
    int32_t s = 0;
    for (const ir::Input& in : g.node(id).inputs)
      s = std::max(s, p.subgraph_of[static_cast<size_t>(in.node)]);
    p.subgraph_of[i] = s;
    p.members[static_cast<size_t>(s)].push_back(id);
    p.outside[i] = 1;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!g.nodes()[i].inputs.empty()) continue;
    int32_t first = -1;
    for (const auto& u : uses[i]) {
      const int32_t s = p.subgraph_of[static_cast<size_t>(u.consumer)];
      if (s >= 0 && (first < 0 || s < first)) first = s;
    }
    p.subgraph_of[i] = first;
    if (first >= 0) p.members[static_cast<size_t>(first)].push_back(static_cast<ir::NodeId>(i));
  }
  for (auto& m : p.members) std::sort(m.begin(), m.end());  // node-list order
  // Crossing: a producer (not a graph input) outside the consumer's group.
  p.input_offset.resize(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    p.input_offset[i + 1] = p.input_offset[i] + static_cast<uint32_t>(g.nodes()[i].inputs.size());
  }
  p.crossing.assign(p.input_offset[n], 0);
  for (size_t i = 0; i < n; ++i) {
    const int32_t s = p.subgraph_of[i];
    if (s < 0) continue;
    const auto& members = p.members[static_cast<size_t>(s)];
    const auto& ins = g.nodes()[i].inputs;
    for (size_t k = 0; k < ins.size(); ++k) {
      const ir::NodeId from = ins[k].node;
      if (g.node(from).inputs.empty()) continue;  // graph inputs are never cut off
      if (!std::binary_search(members.begin(), members.end(), from))
        p.crossing[p.input_offset[i] + k] = 1;
    }
  }
  return p;
}

}  // namespace lightcode::opt
