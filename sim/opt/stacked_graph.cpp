#include "sim/opt/stacked_graph.hpp"

#include <algorithm>
#include <string>

#include "sim/core/error.hpp"

namespace lightcode::opt {
namespace {

std::string describe_node(const ir::Graph& g, ir::NodeId id) {
  const ir::Node& n = g.node(id);
  return "node " + std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ")";
}

}  // namespace

bool FusedStack::has(ir::NodeId id) const {
  return std::binary_search(kernel.members.begin(), kernel.members.end(), id);
}

StackedGraph::StackedGraph(const ir::Graph& graph, const hw::System& system)
    : graph_(&graph), system_(&system) {
  // The groups some unit fuses, and their costs there.
  std::vector<const ir::FusionRule*> rules;
  for (const ir::FusionRule& rule : ir::fusion_rules()) {
    if (!system.profile().fuses_kernels()) break;
    for (size_t t = 0; t < system.unit_count(); ++t) {
      if (system.model(static_cast<hw::UnitType>(t)).fuses(rule.name)) {
        rules.push_back(&rule);
        break;
      }
    }
  }
  std::vector<std::vector<int32_t>> groups_of(graph.size());
  for (ir::FusedKernel& k : ir::match_fusions(graph, rules)) {
    FusedStack fs;
    fs.kernel = std::move(k);
    for (size_t t = 0; t < system.unit_count(); ++t) {
      const auto unit = static_cast<hw::UnitType>(t);
      const hw::HardwareModel& model = system.model(unit);
      if (!model.fuses(fs.kernel.rule)) continue;
      try {
        fs.costs.emplace_back(unit, model.estimate_fused(fs.kernel));
      } catch (const Error& e) {
        throw Error(SourcePlace{graph.source(), 0, 0, ""}, "the " + std::string(fs.kernel.rule) + " kernel of " +
                                                               describe_node(graph, fs.kernel.anchor) + " on '" +
                                                               system.unit(unit).name + "': " + e.what());
      }
    }
    if (fs.costs.empty()) continue;
    for (ir::NodeId m : fs.kernel.members) groups_of[static_cast<size_t>(m)].push_back(static_cast<int32_t>(groups_.size()));
    groups_.push_back(std::move(fs));
  }

  offsets_.reserve(graph.size() + 1);
  candidates_.reserve(graph.size() * 2);
  offsets_.push_back(0);
  for (size_t i = 0; i < graph.size(); ++i) {
    const ir::Node& node = graph.nodes()[i];
    for (size_t t = 0; t < system.unit_count(); ++t) {
      const auto unit = static_cast<hw::UnitType>(t);
      const hw::HardwareModel& model = system.model(unit);
      const hw::AlgorithmList algos = model.algorithms(node);
      for (int a = 0; a < algos.count; ++a) {
        const hw::AlgorithmId algo = algos.ids[static_cast<size_t>(a)];
        try {
          candidates_.push_back(Candidate{unit, algo, model.estimate(node, algo)});
        } catch (const Error& e) {
          throw Error(SourcePlace{graph.source(), 0, 0, ""}, describe_node(graph, static_cast<ir::NodeId>(i)) + " on '" +
                                                                 system.unit(unit).name + "': " + e.what());
        }
      }
    }
    for (int32_t g : groups_of[i]) {
      const FusedStack& fs = groups_[static_cast<size_t>(g)];
      const bool anchor = fs.kernel.anchor == static_cast<ir::NodeId>(i);
      uint64_t shared = 0;
      for (size_t k = 0; k < node.inputs.size() && k < 64; ++k) {
        if (shared_read(g, static_cast<ir::NodeId>(i), static_cast<int>(k))) shared |= uint64_t{1} << k;
      }
      for (const auto& [unit, cost] : fs.costs) {
        hw::Cost share;  // the members but the anchor: no work of their own
        share.bound = cost.bound;
        candidates_.push_back(Candidate{unit, 0, anchor ? cost : share, g, shared});
      }
    }
    if (candidates_.size() == offsets_.back()) {
      std::string units;
      for (size_t t = 0; t < system.unit_count(); ++t) {
        units += (units.empty() ? "" : ", ") + system.unit(static_cast<hw::UnitType>(t)).name;
      }
      throw Error(SourcePlace{graph.source(), 0, 0, ""},
                  describe_node(graph, static_cast<ir::NodeId>(i)) + " cannot run on any unit of system '" +
                      system.name() + "' (units: " + units + ")");
    }
    offsets_.push_back(static_cast<uint32_t>(candidates_.size()));
  }
}

void StackedGraph::edge_error(const Error& e, ir::NodeId consumer, int position, hw::UnitType from,
                              hw::UnitType to) const {
  throw Error(SourcePlace{graph_->source(), 0, 0, ""}, "input " + std::to_string(position) + " of " +
                                                           describe_node(*graph_, consumer) + ", moved from '" +
                                                           system_->unit(from).name + "' to '" +
                                                           system_->unit(to).name + "': " + e.what());
}

bool StackedGraph::shared_read(int32_t g, ir::NodeId consumer, int position) const {
  const ir::Input& read = graph_->node(consumer).inputs[static_cast<size_t>(position)];
  for (ir::NodeId m : group(g).kernel.members) {
    if (m > consumer) break;
    const auto& ins = graph_->node(m).inputs;
    const size_t end = m == consumer ? static_cast<size_t>(position) : ins.size();
    for (size_t k = 0; k < end; ++k) {
      if (ins[k].node == read.node && ins[k].output == read.output) return true;
    }
  }
  return false;
}

const hw::Cost& StackedGraph::kernel_cost(int32_t g, hw::UnitType unit) const {
  for (const auto& [u, cost] : group(g).costs) {
    if (u == unit) return cost;
  }
  throw Error("internal: group " + std::to_string(g) + " has no kernel on unit type " + std::to_string(unit));
}

const ir::TensorType& StackedGraph::edge_tensor(ir::NodeId consumer, int position) const {
  const ir::Node& node = graph_->node(consumer);
  const ir::Input& in = node.inputs[static_cast<size_t>(position)];
  if (system_->profile().input_rule() == ir::InputTypeRule::entry0) return graph_->node(in.node).output(0);
  // A take (embedding lookup) reads only the rows it gathers: its output's worth of the table.
  if (node.kind == ir::OpKind::take && position == 0) return node.output();
  return graph_->node(in.node).output(in.output);
}

bool StackedGraph::photonic_possible(ir::NodeId id) const {
  for (const Candidate* c = begin(id); c != end(id); ++c) {
    if (system_->model(c->unit).capabilities().photonic) return true;
  }
  return false;
}

}  // namespace lightcode::opt
