#include "sim/opt/original_partition.hpp"

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

}  // namespace

OriginalPartition original_partition(const ir::Graph& g) {
  const size_t n = g.size();
  const auto uses = g.consumers();
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
  std::vector<int32_t> to_sink(n, 0);
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

}  // namespace lightcode::opt
