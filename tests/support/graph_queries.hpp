#pragma once
// Questions tests ask of built graphs: the MACs of every node of one kind, and name suffixes.
#include <cstdint>
#include <string>

#include "sim/ir/graph.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::test {

inline int64_t macs_of(const ir::Graph& g, ir::OpKind kind) {
  int64_t total = 0;
  for (const ir::Node& n : g.nodes()) {
    if (n.kind == kind) total += ir::node_macs(n);
  }
  return total;
}

inline bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace lightcode::test
