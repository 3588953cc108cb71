// Graph IR: validation names the node, topological order is stable, mock sequence length.
#include <doctest/doctest.h>

#include "sim/core/error.hpp"
#include "sim/ir/graph.hpp"
#include "sim/ir/metrics.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;
using namespace lightcode::ir;
using lightcode::test::wired;

namespace {
// x [5, 8] and w [16, 8] -> dense [5, 16]
Graph small() {
  Graph g;
  g.add(wired("memory", {}, {5, 8}));
  g.add(wired("memory", {}, {16, 8}));
  g.add(wired("dense", {{0, 0}, {1, 0}}, {5, 16}));
  g.add(wired("relu", {{2, 0}}, {5, 16}));
  return g;
}
}  // namespace

TEST_CASE("a well-formed graph validates, MACs = output elements x K") {
  const Graph g = small();
  CHECK_NOTHROW(g.validate());
  CHECK(node_macs(g.node(2)) == 5 * 16 * 8);
  CHECK(node_flops(g.node(2)) == 2 * 5 * 16 * 8);
  CHECK(g.topological_order() == std::vector<NodeId>{0, 1, 2, 3});
}

TEST_CASE("a cycle is found") {
  Graph g = small();
  g.mutable_node(2).inputs[1] = {3, 0};  // dense reads relu, relu reads dense
  g.mutable_node(2).input_types[1] = g.node(3).output();
  CHECK_THROWS_WITH_AS(g.validate(), doctest::Contains("cycle"), Error);
}

TEST_CASE("a dangling input names the node") {
  Graph g = small();
  g.mutable_node(3).inputs[0] = {9, 0};
  CHECK_THROWS_WITH_AS(g.validate(), doctest::Contains("node 3 'relu' (relu) input 0: producer 9 does not exist"),
                       Error);
}

TEST_CASE("a missing output index and a shape disagreement are found") {
  Graph g = small();
  g.mutable_node(3).inputs[0] = {2, 1};
  CHECK_THROWS_WITH_AS(g.validate(), doctest::Contains("output 1 of node 2"), Error);
  Graph h = small();
  h.mutable_node(3).input_types[0].shape = Shape{5, 17};
  CHECK_THROWS_WITH_AS(h.validate(), doctest::Contains("disagrees"), Error);
}

TEST_CASE("resize_sequence maps L to S and L+1 to S+1") {
  Graph g;
  g.add(wired("memory", {}, {1, 12, 6, 64}));
  g.add(wired("memory", {}, {1, 1, 1, 7}));
  g.resize_sequence(6, 100);
  CHECK(g.node(0).output().shape == Shape{1, 12, 100, 64});
  CHECK(g.node(1).output().shape == Shape{1, 1, 1, 101});
}
