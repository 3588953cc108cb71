#pragma once
// Work and footprint of graphs, as `lightcode inspect` reports them.
// MACs follow the original: for dense / batch matmul / pack, elements of output 0 times the
// last dimension of input 0 (TVM's dense and batch_matmul take B transposed, so that is K).
// FLOPs: 2 per MAC; 1 per output element for element-wise arithmetic and transcendental
// functions; softmax 5 per element (max, subtract, exp, sum, divide); mean one add per input
// element plus one divide per output; data movement (nop, transpose, slice, take, concatenate,
// split, cast, memory) none.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/ir/graph.hpp"

namespace lightcode::ir {

int64_t node_macs(const Node& n);
int64_t node_flops(const Node& n);

struct MatrixProduct {
  NodeId id = 0;
  std::string name;
  std::string kind;
  std::vector<Shape> inputs;
  Shape output;
  int64_t macs = 0;
};

struct GraphSummary {
  size_t nodes = 0;
  size_t memory_nodes = 0;
  std::map<std::string, int64_t> kinds;  // kind name -> count, sorted by name
  int64_t macs = 0;
  int64_t flops = 0;
  std::map<std::string, int64_t> parameter_bytes;   // dtype name -> bytes (weights, constants)
  std::map<std::string, int64_t> input_bytes;       // dtype name -> bytes (tokens, KV cache)
  std::map<std::string, int64_t> activation_bytes;  // dtype name -> bytes (every op output)
  std::vector<MatrixProduct> largest_products;      // by MACs, ties by id; at most `top`
};

GraphSummary summarize(const Graph& g, size_t top = 10);

}  // namespace lightcode::ir
