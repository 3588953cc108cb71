#pragma once
// The graph IR every stage reads: ops with a kind, ordered inputs (producer node + output
// index), one TensorType per output and one per input, a name and string attributes.
// Graph inputs (weights, constants, token ids, KV cache) are nodes of kind `memory`, as in the
// original. Node ids are dense indices; frontends add nodes in topological order, but the
// graph itself only requires an acyclic result (validate() checks).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/checked.hpp"
#include "sim/ir/dtype.hpp"
#include "sim/ir/op_kind.hpp"
#include "sim/ir/shape.hpp"

namespace lightcode::ir {

using NodeId = int32_t;

struct TensorType {
  Shape shape;
  DType dtype = DType::float32;
  // Checked: throws lightcode::Error when int64 cannot hold it.
  int64_t bytes() const {
    return checked_mul(shape.elements(), dtype_bytes(dtype), [this] { return "the bytes of tensor " + shape.str(); });
  }
  bool operator==(const TensorType& o) const { return shape == o.shape && dtype == o.dtype; }
  bool operator!=(const TensorType& o) const { return !(*this == o); }
};

// Checked sums over tensors (throw lightcode::Error when int64 cannot hold them).
inline int64_t total_bytes(const std::vector<TensorType>& ts) {
  int64_t b = 0;
  for (const auto& t : ts) b = checked_add(b, t.bytes(), "a sum of tensor bytes");
  return b;
}
inline int64_t total_elements(const std::vector<TensorType>& ts) {
  int64_t n = 0;
  for (const auto& t : ts) n = checked_add(n, t.shape.elements(), "a sum of tensor elements");
  return n;
}

struct Input {
  NodeId node = 0;
  int32_t output = 0;
  bool operator==(const Input& o) const { return node == o.node && output == o.output; }
};

struct Attr {
  std::string key;
  std::string value;
};

// What a memory node holds; decides whether its bytes count as parameters.
enum class MemoryRole : uint8_t { none, parameter, input };

struct Node {
  OpKind kind = OpKind::other;
  std::string kind_name;  // the original's spelling; differs from op_kind_name for `other`
  std::string name;
  std::vector<Input> inputs;
  std::vector<TensorType> outputs;
  std::vector<TensorType> input_types;  // parallel to inputs; see InputTypeRule
  std::vector<Attr> attrs;
  MemoryRole role = MemoryRole::none;
  // Matrix products: the bits a scenario's `precision:` requires (0: not set; precision.hpp).
  uint8_t required_bits = 0;

  std::string_view attr(std::string_view key) const;  // "" when absent
  const TensorType& output(int i = 0) const { return outputs[static_cast<size_t>(i)]; }
  const TensorType& input_type(int i) const { return input_types[static_cast<size_t>(i)]; }
};

// How a node's input types relate to its producers' outputs. own_entry is right; entry0 is
// the original's shortcut (every input takes its producer's output 0), kept for the
// `lightcode` profile.
enum class InputTypeRule : uint8_t { own_entry, entry0 };

class Graph {
 public:
  // Adds a node; when node.input_types is empty it is filled from the producers (which must
  // exist already) by the graph's input rule. Returns the new id.
  NodeId add(Node node);
  void reserve(size_t n) { nodes_.reserve(n); }

  size_t size() const { return nodes_.size(); }
  const Node& node(NodeId id) const { return nodes_[static_cast<size_t>(id)]; }
  Node& mutable_node(NodeId id) { return nodes_[static_cast<size_t>(id)]; }
  const std::vector<Node>& nodes() const { return nodes_; }

  const std::vector<Input>& heads() const { return heads_; }  // the graph's outputs
  void add_head(Input head) { heads_.push_back(head); }

  InputTypeRule input_rule() const { return input_rule_; }
  void set_input_rule(InputTypeRule r) { input_rule_ = r; }
  // Switches the rule on a built graph, re-deriving every input type from the producers.
  void apply_input_rule(InputTypeRule r);
  const std::string& source() const { return source_; }  // file or "builtin:gpt2@prefill/5"
  void set_source(std::string s) { source_ = std::move(s); }

  // Throws lightcode::Error naming the node: a matrix product without two operands, dangling
  // or out-of-range inputs, output index
  // past the producer's outputs, input types disagreeing with producers, cycles, heads, and
  // tensors whose bytes, or ops whose MACs or FLOPs, int64 cannot hold (so that every later
  // count of one tensor or op is representable; sums are checked where they are made).
  void validate() const;
  // Kahn's order, ties broken by smallest id: the identity for graphs built in order.
  std::vector<NodeId> topological_order() const;
  // consumers[i] = every (consumer, input position) reading node i, in consumer-id order.
  struct Use {
    NodeId consumer;
    int32_t position;
  };
  std::vector<std::vector<Use>> consumers() const;

  // Mock sequence length, as the original: every dimension equal to `traced` becomes
  // `target` and every one equal to traced + 1 becomes target + 1, in all tensor types.
  void resize_sequence(int64_t traced, int64_t target);

 private:
  std::vector<Node> nodes_;
  std::vector<Input> heads_;
  InputTypeRule input_rule_ = InputTypeRule::own_entry;
  std::string source_;
};

}  // namespace lightcode::ir
