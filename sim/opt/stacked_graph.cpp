#include "sim/opt/stacked_graph.hpp"

#include "sim/core/error.hpp"

namespace lightcode::opt {
namespace {

std::string describe_node(const ir::Graph& g, ir::NodeId id) {
  const ir::Node& n = g.node(id);
  return "node " + std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ")";
}

}  // namespace

StackedGraph::StackedGraph(const ir::Graph& graph, const hw::System& system)
    : graph_(&graph), system_(&system) {
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

const ir::TensorType& StackedGraph::edge_tensor(ir::NodeId consumer, int position) const {
  const ir::Input& in = graph_->node(consumer).inputs[static_cast<size_t>(position)];
  const int output = system_->profile().input_rule() == ir::InputTypeRule::entry0 ? 0 : in.output;
  return graph_->node(in.node).output(output);
}

bool StackedGraph::photonic_possible(ir::NodeId id) const {
  for (const Candidate* c = begin(id); c != end(id); ++c) {
    if (system_->model(c->unit).capabilities().photonic) return true;
  }
  return false;
}

}  // namespace lightcode::opt
