#include "sim/opt/partition.hpp"

#include <algorithm>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/opt/original_partition.hpp"

namespace lightcode::opt {

Partition partition(const ir::Graph& g, const Together& together) {
  const size_t n = g.size();
  const auto uses = g.consumers();
  const std::vector<ir::NodeId> order = g.topological_order();
  auto is_memory = [&](ir::NodeId id) { return g.node(id).kind == ir::OpKind::memory; };

  // ASAP depth bounds the layering; ALAP generations count back from it.
  std::vector<int32_t> asap(n, 0);
  int32_t depth = 0;
  for (ir::NodeId id : order) {
    if (is_memory(id)) continue;
    int32_t d = 0;
    for (const ir::Input& in : g.node(id).inputs) {
      if (!is_memory(in.node)) d = std::max(d, asap[static_cast<size_t>(in.node)] + 1);
    }
    asap[static_cast<size_t>(id)] = d;
    depth = std::max(depth, d);
  }
  Partition p;
  p.generation.assign(n, -1);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const ir::NodeId id = *it;
    if (is_memory(id)) continue;
    int32_t gen = depth;
    for (const auto& u : uses[static_cast<size_t>(id)]) gen = std::min(gen, p.generation[static_cast<size_t>(u.consumer)] - 1);
    p.generation[static_cast<size_t>(id)] = gen;
  }

  // Live intervals over short edges: op i is live on generations [gen(i), last_use(i)).
  const auto gens = static_cast<size_t>(depth) + 1;
  std::vector<int32_t> population(gens, 0), live_delta(gens + 1, 0);
  std::vector<ir::NodeId> sole(gens, -1);
  std::vector<int32_t> last_use(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int32_t gi = p.generation[i];
    if (gi < 0) continue;
    ++population[static_cast<size_t>(gi)];
    sole[static_cast<size_t>(gi)] = static_cast<ir::NodeId>(i);
    for (const auto& u : uses[i]) {
      const int32_t gc = p.generation[static_cast<size_t>(u.consumer)];
      if (gc - gi <= kLongEdgeSpan) last_use[i] = std::max(last_use[i], gc);
    }
    if (last_use[i] > gi) {
      ++live_delta[static_cast<size_t>(gi)];
      --live_delta[static_cast<size_t>(last_use[i])];
    }
  }
  // A set kept together is live from its first generation to its last.
  for (const std::vector<ir::NodeId>& set : together) {
    int32_t first = -1, last = -1;
    for (ir::NodeId id : set) {
      const int32_t gen = p.generation[static_cast<size_t>(id)];
      if (gen < 0) continue;
      first = first < 0 ? gen : std::min(first, gen);
      last = std::max(last, gen);
    }
    if (first >= 0 && last > first) {
      ++live_delta[static_cast<size_t>(first)];
      --live_delta[static_cast<size_t>(last)];
    }
  }
  std::vector<int32_t> cuts;
  int32_t live = 0;
  for (size_t gen = 0; gen < gens; ++gen) {
    live += live_delta[gen];
    if (population[gen] != 1) continue;
    const ir::NodeId only = sole[gen];
    const bool only_live = last_use[static_cast<size_t>(only)] > static_cast<int32_t>(gen);
    if (live == (only_live ? 1 : 0)) cuts.push_back(static_cast<int32_t>(gen));
  }

  // Subgraph k holds generations (cuts[k-1], cuts[k]]; a tail after the last cut is one more.
  auto subgraph_of_gen = [&](int32_t gen) {
    return static_cast<int32_t>(std::lower_bound(cuts.begin(), cuts.end(), gen) - cuts.begin());
  };
  p.subgraph_of.assign(n, -1);
  int32_t highest = 0;
  for (size_t i = 0; i < n; ++i) {
    if (p.generation[i] >= 0) {
      p.subgraph_of[i] = subgraph_of_gen(p.generation[i]);
      highest = std::max(highest, p.subgraph_of[i]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (p.generation[i] >= 0) continue;
    int32_t first = -1;
    for (const auto& u : uses[i]) {
      const int32_t s = p.subgraph_of[static_cast<size_t>(u.consumer)];
      if (s >= 0 && (first < 0 || s < first)) first = s;
    }
    p.subgraph_of[i] = first;
  }
  p.count = n == 0 ? 0 : highest + 1;
  p.head.assign(static_cast<size_t>(p.count), -1);
  p.outside.assign(n, 0);
  p.members.resize(static_cast<size_t>(p.count));
  for (size_t i = 0; i < n; ++i) {
    if (p.subgraph_of[i] >= 0) p.members[static_cast<size_t>(p.subgraph_of[i])].push_back(static_cast<ir::NodeId>(i));
  }

  p.input_offset.resize(n + 1, 0);
  for (size_t i = 0; i < n; ++i) p.input_offset[i + 1] = p.input_offset[i] + static_cast<uint32_t>(g.nodes()[i].inputs.size());
  p.crossing.assign(p.input_offset[n], 0);
  for (size_t i = 0; i < n; ++i) {
    const int32_t gv = p.generation[i];
    if (gv < 0) continue;
    const auto& ins = g.nodes()[i].inputs;
    for (size_t k = 0; k < ins.size(); ++k) {
      const int32_t gu = p.generation[static_cast<size_t>(ins[k].node)];
      if (gu < 0) continue;  // graph inputs are never cut off
      const auto next_cut = std::upper_bound(cuts.begin(), cuts.end(), gu);
      if (next_cut != cuts.end() && *next_cut < gv) p.crossing[p.input_offset[i] + k] = 1;
    }
  }
  return p;
}

const std::vector<PartitionRule>& partition_rules() {
  static const std::vector<PartitionRule> rules{
      {"articulation", "cuts at single-op generations of the ALAP layering; long edges set aside", partition},
      {"original", "the original LightCode's: single-live-op cuts, groups sharing their cut op",
       [](const ir::Graph& g, const Together&) { return original_partition_groups(g); }},
  };
  return rules;
}

const PartitionRule& partition_rule_named(std::string_view name) {
  return named_in(partition_rules(), name, "partition rule");
}

Partition partition_for(const ir::Graph& graph, const hw::Profile& profile) {
  return partition_rule_named(profile.partition_rule()).make(graph, {});
}

Partition partition_for(const StackedGraph& stacks) {
  Together together;
  together.reserve(stacks.groups().size());
  for (const FusedStack& g : stacks.groups()) together.push_back(g.kernel.members);
  return partition_rule_named(stacks.system().profile().partition_rule()).make(stacks.graph(), together);
}

}  // namespace lightcode::opt
