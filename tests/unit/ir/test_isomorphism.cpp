// The isomorphism check must accept relabelled graphs and reject any changed node or edge.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "sim/ir/graph.hpp"
#include "sim/ir/isomorphism.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode::ir;
using lightcode::test::wired;

namespace {
// Repeated blocks make many look-alike nodes: the check has to use the edges to tell them apart.
Graph layered(int layers) {
  Graph g;
  NodeId x = g.add(wired("memory", {}, {4, 8}));
  for (int l = 0; l < layers; ++l) {
    const NodeId w = g.add(wired("memory", {}, {8, 8}));
    const NodeId d = g.add(wired("dense", {{x, 0}, {w, 0}}, {4, 8}));
    const NodeId r = g.add(wired("relu", {{d, 0}}, {4, 8}));
    x = g.add(wired("add", {{r, 0}, {x, 0}}, {4, 8}));
  }
  return g;
}

// The same graph with its nodes renumbered by a topological-order-preserving shuffle.
Graph permuted(const Graph& g, unsigned seed) {
  std::vector<NodeId> order = g.topological_order();
  std::mt19937 rng(seed);
  // Swap adjacent nodes that do not depend on each other, many times.
  for (int k = 0; k < 2000; ++k) {
    const size_t i = rng() % (order.size() - 1);
    const Node& later = g.node(order[i + 1]);
    const bool depends = std::any_of(later.inputs.begin(), later.inputs.end(),
                                     [&](const Input& in) { return in.node == order[i]; });
    if (!depends) std::swap(order[i], order[i + 1]);
  }
  std::vector<NodeId> new_id(g.size());
  for (size_t i = 0; i < order.size(); ++i) new_id[static_cast<size_t>(order[i])] = static_cast<NodeId>(i);
  Graph out;
  for (NodeId old : order) {
    Node n = g.node(old);
    for (Input& in : n.inputs) in.node = new_id[static_cast<size_t>(in.node)];
    n.name = "renamed" + std::to_string(old);
    out.add(std::move(n));
  }
  return out;
}
}  // namespace

TEST_CASE("a graph is isomorphic to its renumbered, renamed copy") {
  const Graph g = layered(6);
  for (unsigned seed = 1; seed <= 5; ++seed) CHECK(isomorphism_mismatch(g, permuted(g, seed)) == "");
}

TEST_CASE("a changed shape, kind, edge or input position is found") {
  const Graph g = layered(4);
  Graph shape = g;
  shape.mutable_node(3).outputs[0].shape = Shape{4, 9};
  CHECK(isomorphism_mismatch(g, shape).find("labels differ") != std::string::npos);

  Graph kind = g;
  kind.mutable_node(3).kind_name = "tanh";
  CHECK(isomorphism_mismatch(g, kind) != "");

  // Rewire layer 2's residual to read layer 0's output: same labels, different edges.
  Graph edge = g;
  edge.mutable_node(12).inputs[1] = {4, 0};
  CHECK(isomorphism_mismatch(g, edge) != "");

  // Swap the operands of an add: same multiset of edges, different positions.
  Graph swapped = g;
  std::swap(swapped.mutable_node(8).inputs[0], swapped.mutable_node(8).inputs[1]);
  CHECK(isomorphism_mismatch(g, swapped) != "");

  Graph fewer = layered(3);
  CHECK(isomorphism_mismatch(g, fewer).find("node counts differ") != std::string::npos);
}

TEST_CASE("symmetric graphs (true automorphisms) are matched") {
  Graph a;
  const NodeId x = a.add(wired("memory", {}, {2}));
  const NodeId y = a.add(wired("memory", {}, {2}));
  const NodeId p = a.add(wired("relu", {{x, 0}}, {2}));
  const NodeId q = a.add(wired("relu", {{y, 0}}, {2}));
  a.add(wired("concatenate", {{p, 0}, {q, 0}}, {4}));
  a.add(wired("relu", {{x, 0}}, {2}));
  a.add(wired("relu", {{y, 0}}, {2}));
  CHECK(isomorphism_mismatch(a, permuted(a, 3)) == "");
}
