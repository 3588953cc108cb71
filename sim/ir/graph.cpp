#include "sim/ir/graph.hpp"

#include <queue>

#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::ir {
namespace {

std::string describe(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  return "node " + std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ")";
}

[[noreturn]] void fail(const Graph& g, const std::string& message) {
  throw Error(SourcePlace{g.source(), 0, 0, ""}, message);
}

}  // namespace

std::string_view Node::attr(std::string_view key) const {
  for (const Attr& a : attrs) {
    if (a.key == key) return a.value;
  }
  return {};
}

NodeId Graph::add(Node node) {
  if (node.input_types.empty() && !node.inputs.empty()) {
    node.input_types.reserve(node.inputs.size());
    for (const Input& in : node.inputs) {
      const Node& producer = nodes_.at(static_cast<size_t>(in.node));
      const int32_t entry = input_rule_ == InputTypeRule::entry0 ? 0 : in.output;
      node.input_types.push_back(producer.outputs.at(static_cast<size_t>(entry)));
    }
  }
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Graph::apply_input_rule(InputTypeRule r) {
  input_rule_ = r;
  for (Node& node : nodes_) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const Input& in = node.inputs[i];
      const int32_t entry = r == InputTypeRule::entry0 ? 0 : in.output;
      node.input_types[i] = nodes_[static_cast<size_t>(in.node)].outputs[static_cast<size_t>(entry)];
    }
  }
}

void Graph::validate() const {
  const auto n = static_cast<NodeId>(nodes_.size());
  for (NodeId id = 0; id < n; ++id) {
    const Node& node = nodes_[static_cast<size_t>(id)];
    if (node.kind == OpKind::memory && !node.inputs.empty()) {
      fail(*this, describe(*this, id) + ": a memory node has no inputs, found " +
                      std::to_string(node.inputs.size()));
    }
    if (node.outputs.empty()) fail(*this, describe(*this, id) + ": has no output type");
    // Cost models and the photonic expansion read both operands of a product.
    if (is_matrix_product(node.kind) && node.inputs.size() < 2) {
      fail(*this, describe(*this, id) + ": a matrix product reads two operands, found " +
                      std::to_string(node.inputs.size()));
    }
    if (node.input_types.size() != node.inputs.size()) {
      fail(*this, describe(*this, id) + ": " + std::to_string(node.inputs.size()) +
                      " inputs but " + std::to_string(node.input_types.size()) + " input types");
    }
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const Input& in = node.inputs[i];
      // Built only for a message: validate() runs on every graph a generation builds.
      const auto where = [&] { return describe(*this, id) + " input " + std::to_string(i); };
      if (in.node < 0 || in.node >= n) {
        fail(*this, where() + ": producer " + std::to_string(in.node) + " does not exist (graph has " +
                        std::to_string(n) + " nodes)");
      }
      if (in.node == id) fail(*this, where() + ": reads its own output");
      const Node& producer = nodes_[static_cast<size_t>(in.node)];
      if (in.output < 0 || static_cast<size_t>(in.output) >= producer.outputs.size()) {
        fail(*this, where() + ": output " + std::to_string(in.output) + " of " +
                        describe(*this, in.node) + " does not exist (it has " +
                        std::to_string(producer.outputs.size()) + ")");
      }
      const int32_t entry = input_rule_ == InputTypeRule::entry0 ? 0 : in.output;
      if (producer.outputs[static_cast<size_t>(entry)] != node.input_types[i]) {
        fail(*this, where() + ": type " + node.input_types[i].shape.str() + " disagrees with " +
                        describe(*this, in.node) + " output " + std::to_string(entry) + " " +
                        producer.outputs[static_cast<size_t>(entry)].shape.str());
      }
    }
  }
  for (NodeId id = 0; id < n; ++id) {
    const Node& node = nodes_[static_cast<size_t>(id)];
    try {
      for (const TensorType& t : node.outputs) static_cast<void>(t.bytes());
      for (const TensorType& t : node.input_types) static_cast<void>(t.bytes());
      static_cast<void>(node_flops(node));  // MACs and FLOPs
    } catch (const Error& e) {
      fail(*this, describe(*this, id) + ": " + e.what());
    }
  }
  for (const Input& h : heads_) {
    if (h.node < 0 || h.node >= n ||
        static_cast<size_t>(h.output) >= nodes_[static_cast<size_t>(h.node)].outputs.size()) {
      fail(*this, "graph output (" + std::to_string(h.node) + ", " + std::to_string(h.output) +
                      ") does not exist");
    }
  }
  if (topological_order().size() != nodes_.size()) {
    fail(*this, "the graph has a cycle");
  }
}

std::vector<NodeId> Graph::topological_order() const {
  const size_t n = nodes_.size();
  // A graph built in order (every input an earlier node: what the frontends build) is its
  // own order: Kahn's with ties to the smallest id would return 0..n-1 (the smallest node not
  // yet taken has all its inputs taken), so it is returned without the walk.
  bool in_order = true;
  for (size_t i = 0; i < n && in_order; ++i) {
    for (const Input& in : nodes_[i].inputs) {
      if (in.node < 0 || static_cast<size_t>(in.node) >= i) {
        in_order = false;
        break;
      }
    }
  }
  if (in_order) {
    std::vector<NodeId> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = static_cast<NodeId>(i);
    return order;
  }
  std::vector<int32_t> pending(n, 0);
  const auto uses = consumers();
  for (size_t i = 0; i < n; ++i) pending[i] = static_cast<int32_t>(nodes_[i].inputs.size());
  // A min-heap keeps the order stable: for graphs already in order this returns 0..n-1.
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(static_cast<NodeId>(i));
  }
  std::vector<NodeId> order;
  order.reserve(n);
  while (!ready.empty()) {
    const NodeId id = ready.top();
    ready.pop();
    order.push_back(id);
    for (const Use& u : uses[static_cast<size_t>(id)]) {
      if (--pending[static_cast<size_t>(u.consumer)] == 0) ready.push(u.consumer);
    }
  }
  return order;
}

std::vector<std::vector<Graph::Use>> Graph::consumers() const {
  std::vector<std::vector<Use>> uses(nodes_.size());
  for (size_t c = 0; c < nodes_.size(); ++c) {
    const auto& ins = nodes_[c].inputs;
    for (size_t p = 0; p < ins.size(); ++p) {
      const NodeId producer = ins[p].node;
      if (producer >= 0 && static_cast<size_t>(producer) < nodes_.size()) {
        uses[static_cast<size_t>(producer)].push_back(
            Use{static_cast<NodeId>(c), static_cast<int32_t>(p)});
      }
    }
  }
  return uses;
}

void Graph::resize_sequence(int64_t traced, int64_t target) {
  if (traced == target) return;
  auto fix = [&](TensorType& t) {
    for (int64_t& d : t.shape) {
      if (d == traced) {
        d = target;
      } else if (d == traced + 1) {
        d = target + 1;
      }
    }
  };
  for (Node& node : nodes_) {
    for (TensorType& t : node.outputs) fix(t);
    for (TensorType& t : node.input_types) fix(t);
  }
}

}  // namespace lightcode::ir
