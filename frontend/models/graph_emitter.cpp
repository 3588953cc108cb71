#include "frontend/models/graph_emitter.hpp"

#include <stdexcept>
#include <utility>

namespace lightcode::frontend::detail {
namespace {

[[noreturn]] void bug(const std::string& what) {
  throw std::logic_error("model builder: " + what);
}

ir::Shape broadcast(const ir::Shape& a, const ir::Shape& b) {
  const int rank = a.rank() > b.rank() ? a.rank() : b.rank();
  ir::Shape out;
  for (int i = rank; i >= 1; --i) {
    const int64_t x = a.from_back(i);
    const int64_t y = b.from_back(i);
    if (x != y && x != 1 && y != 1) bug("cannot broadcast " + a.str() + " with " + b.str());
    out.push_back(x == 1 ? y : x);
  }
  return out;
}

int axis_of(const ir::Shape& s, int axis) {
  const int a = axis < 0 ? axis + s.rank() : axis;
  if (a < 0 || a >= s.rank()) bug("axis " + std::to_string(axis) + " out of range for " + s.str());
  return a;
}

}  // namespace

GraphEmitter::GraphEmitter(ir::DType float_type, size_t node_hint) : float_type_(float_type) {
  nodes_.reserve(node_hint);
}

const ir::TensorType& GraphEmitter::type(Value v) const {
  return nodes_[static_cast<size_t>(v.node)].outputs[static_cast<size_t>(v.output)];
}

std::string GraphEmitter::name_of(std::string_view label) const {
  std::string s;
  s.reserve(scope_.size() + 1 + label.size());
  s += scope_;
  if (!s.empty()) s += '.';
  s += label;
  return s;
}

Value GraphEmitter::input(std::string name, ir::Shape shape, ir::DType dtype) {
  ir::Node n;
  n.kind = ir::OpKind::memory;
  n.kind_name = "memory";
  n.name = std::move(name);
  n.outputs.push_back(ir::TensorType{shape, dtype});
  n.role = ir::MemoryRole::input;
  nodes_.push_back(std::move(n));
  const auto id = static_cast<ir::NodeId>(nodes_.size() - 1);
  inputs_.push_back(id);
  return Value{id, 0};
}

Value GraphEmitter::param(std::string_view label, ir::Shape shape, ir::DType dtype) {
  ir::Node n;
  n.kind = ir::OpKind::memory;
  n.kind_name = "memory";
  n.name = name_of(label);
  n.outputs.push_back(ir::TensorType{shape, dtype});
  n.role = ir::MemoryRole::parameter;
  nodes_.push_back(std::move(n));
  return Value{static_cast<ir::NodeId>(nodes_.size() - 1), 0};
}

void GraphEmitter::set_attr(Value v, std::string key, std::string value) {
  nodes_[static_cast<size_t>(v.node)].attrs.push_back(ir::Attr{std::move(key), std::move(value)});
}

Value GraphEmitter::op(std::string_view kind, std::string_view label,
                       std::initializer_list<Value> inputs, const ir::TensorType& out) {
  ir::Node n;
  n.kind_name = std::string(kind);
  n.kind = ir::parse_op_kind(kind);
  n.name = name_of(label);
  n.inputs.reserve(inputs.size());
  for (const Value& v : inputs) n.inputs.push_back(ir::Input{v.node, v.output});
  n.outputs.push_back(out);
  nodes_.push_back(std::move(n));
  return Value{static_cast<ir::NodeId>(nodes_.size() - 1), 0};
}

Value GraphEmitter::reshape(Value x, ir::Shape shape, std::string_view label) {
  const ir::TensorType& t = type(x);
  if (t.shape.elements() != shape.elements())
    bug("reshape " + t.shape.str() + " to " + shape.str());
  // TVM runs reshape-only functions in place: the graph executor's `__nop`.
  return op("nop", label, {x}, ir::TensorType{shape, t.dtype});
}

Value GraphEmitter::transpose(Value x, std::initializer_list<int> perm, std::string_view label) {
  const ir::TensorType& t = type(x);
  if (static_cast<int>(perm.size()) != t.shape.rank()) bug("transpose rank of " + t.shape.str());
  ir::Shape s;
  for (int p : perm) s.push_back(t.shape[axis_of(t.shape, p)]);
  return op("transpose", label, {x}, ir::TensorType{s, t.dtype});
}

Value GraphEmitter::binary(std::string_view kind, Value a, Value b, std::string_view label) {
  const ir::TensorType& ta = type(a);
  const ir::TensorType& tb = type(b);
  const ir::DType dt = ta.shape.rank() == 0 ? tb.dtype : ta.dtype;
  return op(kind, label, {a, b}, ir::TensorType{broadcast(ta.shape, tb.shape), dt});
}

Value GraphEmitter::compare(std::string_view kind, Value a, Value b, std::string_view label) {
  return op(kind, label, {a, b}, ir::TensorType{broadcast(shape(a), shape(b)), ir::DType::uint1});
}

Value GraphEmitter::unary(std::string_view kind, Value x, std::string_view label) {
  const ir::TensorType t = type(x);
  return op(kind, label, {x}, t);
}

Value GraphEmitter::cast(Value x, ir::DType to, std::string_view label) {
  const ir::Shape s = shape(x);
  return op("cast", label, {x}, ir::TensorType{s, to});
}

Value GraphEmitter::mean_last(Value x, std::string_view label) {
  ir::TensorType t = type(x);
  t.shape[t.shape.rank() - 1] = 1;
  return op("mean", label, {x}, t);
}

Value GraphEmitter::dense(Value x, Value w, std::string_view label) {
  const ir::Shape& xs = shape(x);
  const ir::Shape& ws = shape(w);
  if (xs.rank() != 2 || ws.rank() != 2 || xs[1] != ws[1])
    bug("dense " + xs.str() + " x " + ws.str());
  return op("dense", label, {x, w}, ir::TensorType{ir::Shape{xs[0], ws[0]}, type(x).dtype});
}

Value GraphEmitter::batch_matmul(Value a, Value b, std::string_view label) {
  const ir::Shape& as = shape(a);
  const ir::Shape& bs = shape(b);
  if (as.rank() != 3 || bs.rank() != 3 || as[0] != bs[0] || as[2] != bs[2]) {
    bug("batch_matmul " + as.str() + " x " + bs.str());
  }
  return op("matmul", label, {a, b}, ir::TensorType{ir::Shape{as[0], as[1], bs[1]}, type(a).dtype});
}

Value GraphEmitter::where(Value cond, Value a, Value b, std::string_view label) {
  const ir::Shape s = broadcast(shape(cond), broadcast(shape(a), shape(b)));
  const ir::DType dt = type(a).dtype;
  return op("where", label, {cond, a, b}, ir::TensorType{s, dt});
}

Value GraphEmitter::take(Value table, Value indices, std::string_view label) {
  const ir::TensorType& t = type(table);
  ir::Shape s = shape(indices);
  for (int i = 1; i < t.shape.rank(); ++i) s.push_back(t.shape[i]);
  return op("take", label, {table, indices}, ir::TensorType{s, t.dtype});
}

Value GraphEmitter::strided_slice(Value x, int axis, int64_t begin, int64_t end,
                                  std::string_view label) {
  ir::TensorType t = type(x);
  const int a = axis_of(t.shape, axis);
  if (begin < 0 || end > t.shape[a] || begin >= end) bug("slice of " + t.shape.str());
  t.shape[a] = end - begin;
  return op("slice", label, {x}, t);
}

Value GraphEmitter::concatenate(Value a, Value b, int axis, std::string_view label) {
  ir::TensorType t = type(a);
  const ir::Shape& bs = shape(b);
  const int ax = axis_of(t.shape, axis);
  for (int i = 0; i < t.shape.rank(); ++i) {
    if (i != ax && t.shape[i] != bs[i]) bug("concatenate " + t.shape.str() + " with " + bs.str());
  }
  t.shape[ax] += bs[ax];
  return op("concatenate", label, {a, b}, t);
}

std::vector<Value> GraphEmitter::split_last(Value x, int parts, std::string_view label) {
  ir::TensorType part = type(x);
  const int last = part.shape.rank() - 1;
  if (parts < 1 || part.shape[last] % parts != 0) bug("split of " + part.shape.str());
  part.shape[last] /= parts;
  const Value v = op("split", label, {x}, part);
  ir::Node& n = nodes_[static_cast<size_t>(v.node)];
  n.outputs.assign(static_cast<size_t>(parts), part);
  std::vector<Value> out;
  for (int i = 0; i < parts; ++i) out.push_back(Value{v.node, i});
  return out;
}

Value GraphEmitter::broadcast_to(Value x, ir::Shape s, std::string_view label) {
  const ir::TensorType& t = type(x);
  if (broadcast(t.shape, s) != s) bug("broadcast_to " + t.shape.str() + " -> " + s.str());
  return op("to", label, {x}, ir::TensorType{s, t.dtype});
}

Value GraphEmitter::scatter_nd(Value data, Value indices, Value updates, std::string_view label) {
  const ir::TensorType t = type(data);
  return op("nd", label, {data, indices, updates}, t);
}

ir::Graph GraphEmitter::finish(std::string source) {
  const size_t n = nodes_.size();
  constexpr ir::NodeId kUnplaced = -1;
  std::vector<ir::NodeId> new_id(n, kUnplaced);
  std::vector<ir::NodeId> order;
  order.reserve(n);
  auto place = [&](ir::NodeId id) {
    new_id[static_cast<size_t>(id)] = static_cast<ir::NodeId>(order.size());
    order.push_back(id);
  };
  for (ir::NodeId id : inputs_) place(id);

  // Iterative post-order walk (graphs are thousands of nodes deep along the residual chain).
  struct Frame {
    ir::NodeId id;
    size_t next;
  };
  std::vector<Frame> stack;
  std::vector<char> open(n, 0);
  for (const ir::Input& head : heads_) {
    if (new_id[static_cast<size_t>(head.node)] != kUnplaced) continue;
    stack.push_back(Frame{head.node, 0});
    open[static_cast<size_t>(head.node)] = 1;
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto& ins = nodes_[static_cast<size_t>(f.id)].inputs;
      if (f.next < ins.size()) {
        const ir::NodeId child = ins[f.next++].node;
        if (new_id[static_cast<size_t>(child)] == kUnplaced) {
          if (open[static_cast<size_t>(child)])
            bug("cycle through node '" + nodes_[static_cast<size_t>(child)].name + "'");
          open[static_cast<size_t>(child)] = 1;
          stack.push_back(Frame{child, 0});
        }
        continue;
      }
      place(f.id);
      stack.pop_back();
    }
  }

  ir::Graph g;
  g.set_source(std::move(source));
  g.reserve(order.size());
  for (ir::NodeId old : order) {
    ir::Node node = std::move(nodes_[static_cast<size_t>(old)]);
    for (ir::Input& in : node.inputs) in.node = new_id[static_cast<size_t>(in.node)];
    g.add(std::move(node));
  }
  for (const ir::Input& head : heads_) {
    g.add_head(ir::Input{new_id[static_cast<size_t>(head.node)], head.output});
  }
  nodes_.clear();
  inputs_.clear();
  heads_.clear();
  return g;
}

}  // namespace lightcode::frontend::detail
