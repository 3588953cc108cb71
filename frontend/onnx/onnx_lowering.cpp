#include "frontend/onnx/onnx_lowering.hpp"

#include <algorithm>

#include "frontend/onnx/onnx_ops.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend::onnx_detail {
namespace {

using ::onnx::TensorProto;

std::optional<ir::DType> dtype_of(int32_t elem_type) {
  switch (elem_type) {
    case TensorProto::FLOAT:
      return ir::DType::float32;
    case TensorProto::FLOAT16:
      return ir::DType::float16;
    case TensorProto::BFLOAT16:
      return ir::DType::bfloat16;
    case TensorProto::DOUBLE:
      return ir::DType::float64;
    case TensorProto::INT64:
      return ir::DType::int64;
    case TensorProto::INT32:
      return ir::DType::int32;
    case TensorProto::INT16:
      return ir::DType::int16;
    case TensorProto::INT8:
      return ir::DType::int8;
    case TensorProto::UINT8:
      return ir::DType::uint8;
    case TensorProto::BOOL:
      return ir::DType::uint1;
    default:
      return std::nullopt;
  }
}

std::string perm_text(const std::vector<int>& perm) {
  std::string s;
  for (int p : perm) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

bool identity(const std::vector<int>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int>(i)) return false;
  }
  return true;
}

}  // namespace

Lowerer::Lowerer(const ParsedModel& m, const TypedModel& t) : model_(m), typed_(t) {
  const ::onnx::GraphProto& g = m.model.graph();
  for (const auto& in : g.input()) {
    ValueState& s = values_[in.name()];
    s.known = true;
    s.is_static = m.parameters.count(in.name()) > 0;
  }
  for (const auto& init : g.initializer()) {
    ValueState& s = values_[init.name()];
    s.known = true;
    s.is_static = true;
  }
}

void Lowerer::fail(const std::string& message) const {
  if (node_) fail_node(model_.name, index_, *node_, message);
  throw Error(SourcePlace{model_.name, 0, 0, "graph.output"}, message);
}

const std::string& Lowerer::canonical(const std::string& value) const {
  auto it = values_.find(value);
  return it == values_.end() || it->second.alias.empty() ? value : it->second.alias;
}

const Lowerer::ValueState& Lowerer::state(const std::string& value) const {
  auto it = values_.find(canonical(value));
  if (it == values_.end() || !it->second.known) fail("reads '" + value + "', which is not defined");
  return it->second;
}

int64_t Lowerer::int_attribute(const char* name, int64_t fallback) const {
  for (const auto& a : node_->attribute()) {
    if (a.name() == name) return a.i();
  }
  return fallback;
}

float Lowerer::float_attribute(const char* name, float fallback) const {
  for (const auto& a : node_->attribute()) {
    if (a.name() == name) return a.f();
  }
  return fallback;
}

std::string Lowerer::string_attribute(const char* name, const std::string& fallback) const {
  for (const auto& a : node_->attribute()) {
    if (a.name() == name) return a.s();
  }
  return fallback;
}

std::vector<int64_t> Lowerer::ints_attribute(const char* name) const {
  for (const auto& a : node_->attribute()) {
    if (a.name() == name) return std::vector<int64_t>(a.ints().begin(), a.ints().end());
  }
  return {};
}

ir::TensorType Lowerer::type_of(const std::string& value) const {
  const ValueState& s = state(value);
  auto where = [&] {
    if (node_ && s.producer == index_) return "its output '" + value + "'";
    return "'" + value + "'" +
           (s.producer >= 0
                ? " (output of " + node_place(s.producer, model_.model.graph().node(s.producer)) +
                      ")"
                : "");
  };
  auto it = typed_.types.find(value);
  if (it == typed_.types.end() || !it->second.has_tensor_type() ||
      !it->second.tensor_type().has_shape()) {
    fail("the shape of " + where() + " is unknown after shape inference");
  }
  const auto& tensor = it->second.tensor_type();
  const auto dtype = dtype_of(tensor.elem_type());
  if (!dtype)
    fail("the element type " + std::to_string(tensor.elem_type()) + " of " + where() +
         " is not supported");
  if (tensor.shape().dim_size() > ir::Shape::kMaxRank) {
    fail("the rank " + std::to_string(tensor.shape().dim_size()) + " of " + where() +
         " is above the limit of " + std::to_string(ir::Shape::kMaxRank) + " (" +
         std::string(limits::kTensorRank.name) + ")");
  }
  ir::TensorType t;
  t.dtype = *dtype;
  for (const auto& d : tensor.shape().dim()) {
    if (!d.has_dim_value() || d.dim_value() < 0)
      fail("the shape of " + where() + " is not static after shape inference");
    t.shape.push_back(d.dim_value());
  }
  return t;
}

bool Lowerer::is_static(const std::string& value) const {
  return state(value).is_static;
}

const ::onnx::NodeProto* Lowerer::producer(const std::string& value) const {
  const int p = state(value).producer;
  return p < 0 ? nullptr : &model_.model.graph().node(p);
}

ir::Input Lowerer::memory(const std::string& name, const ir::TensorType& type,
                          ir::MemoryRole role) {
  ir::Node n;
  n.kind = ir::OpKind::memory;
  n.kind_name = "memory";
  n.name = name;
  n.outputs.push_back(type);
  n.role = role;
  nodes_.push_back(std::move(n));
  return ir::Input{static_cast<ir::NodeId>(nodes_.size() - 1), 0};
}

ir::Input Lowerer::data(const std::string& name) {
  const std::string& value = canonical(name);
  const ValueState& s = state(value);
  if (!s.unavailable.empty()) fail(s.unavailable);
  if (s.ir.node >= 0) return s.ir;
  const ir::Input x = memory(value, type_of(value),
                             s.is_static ? ir::MemoryRole::parameter : ir::MemoryRole::input);
  values_[value].ir = x;
  return x;
}

ir::Input Lowerer::permuted(const std::string& value, const std::vector<int>& perm,
                            const std::string& label) {
  std::string v = canonical(value);
  std::vector<int> order = perm;
  // Transposes feeding this one compose with it: out axis i is axis p[order[i]] of their input.
  for (const ::onnx::NodeProto* p = producer(v); p && p->op_type() == "Transpose";
       p = producer(v)) {
    std::vector<int64_t> inner;
    for (const auto& a : p->attribute()) {
      if (a.name() == "perm") inner.assign(a.ints().begin(), a.ints().end());
    }
    if (inner.empty()) {
      for (size_t i = order.size(); i-- > 0;) inner.push_back(static_cast<int64_t>(i));
    }
    const auto rank = static_cast<int64_t>(order.size());
    if (inner.size() != order.size() ||
        std::any_of(inner.begin(), inner.end(), [rank](int64_t a) { return a < 0 || a >= rank; })) {
      break;  // not a permutation of these axes: keep this transpose
    }
    std::vector<int> composed;
    for (int o : order) composed.push_back(static_cast<int>(inner[static_cast<size_t>(o)]));
    order = std::move(composed);
    v = canonical(p->input(0));
  }
  if (identity(order)) return data(v);
  if (is_static(v)) {
    const std::string key = v + "|" + perm_text(order);
    if (auto it = folded_.find(key); it != folded_.end()) return it->second;
    ir::TensorType t = type_of(v);
    ir::TensorType out{ir::Shape{}, t.dtype};
    for (int o : order) out.shape.push_back(t.shape[o]);
    return folded_[key] = memory(v + ".T", out, ir::MemoryRole::parameter);
  }
  return transpose(data(v), order, label);
}

const ir::TensorType& Lowerer::type(ir::Input x) const {
  return nodes_[static_cast<size_t>(x.node)].outputs[static_cast<size_t>(x.output)];
}

ir::Input Lowerer::add(ir::OpKind kind, const std::string& label, std::vector<ir::Input> inputs,
                       std::vector<ir::TensorType> outputs, std::string kind_name) {
  if (static_cast<int64_t>(nodes_.size()) >= limits::kGraphNodes.value) {
    fail("the graph grows above " + std::to_string(limits::kGraphNodes.value) + " nodes (" +
         std::string(limits::kGraphNodes.name) + ")");
  }
  ir::Node n;
  n.kind = kind;
  n.kind_name = kind_name.empty() ? std::string(ir::op_kind_name(kind)) : std::move(kind_name);
  n.name = label.empty() ? node_name_ : node_name_ + "." + label;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  nodes_.push_back(std::move(n));
  return ir::Input{static_cast<ir::NodeId>(nodes_.size() - 1), 0};
}

ir::Input Lowerer::reshape(ir::Input x, const ir::Shape& to, const std::string& label) {
  const ir::TensorType t = type(x);
  if (t.shape == to) return x;
  if (t.shape.elements() != to.elements()) fail("cannot view " + t.shape.str() + " as " + to.str());
  return add(ir::OpKind::nop, label, {x}, {ir::TensorType{to, t.dtype}});
}

ir::Input Lowerer::transpose(ir::Input x, const std::vector<int>& perm, const std::string& label) {
  const ir::TensorType t = type(x);
  ir::TensorType out{ir::Shape{}, t.dtype};
  for (int p : perm) out.shape.push_back(t.shape[p]);
  return add(ir::OpKind::transpose, label, {x}, {out});
}

ir::Input Lowerer::scalar(const std::string& label, ir::DType dtype) {
  return memory(node_name_ + "." + label, ir::TensorType{ir::Shape{}, dtype},
                ir::MemoryRole::parameter);
}

void Lowerer::bind(int k, ir::Input x) {
  values_[node_->output(k)].ir = x;
}

void Lowerer::lower_node(int index) {
  const ::onnx::NodeProto& node = model_.model.graph().node(index);
  node_ = &node;
  index_ = index;
  node_name_ = node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
  const OnnxOp& op = *find_onnx_op(node.domain(), node.op_type());  // parse_model checked it
  std::string dynamic;  // a data input known only at run time
  for (int k = 0; k < node.input_size(); ++k) {
    const std::string& in = node.input(k);
    if (in.empty() || !is_data_input(op, k)) continue;
    const ValueState& s = state(in);
    if (!s.unavailable.empty()) fail(s.unavailable);
    if (!s.is_static && dynamic.empty()) dynamic = in;
  }
  for (int k = 0; k < node.output_size(); ++k) {
    if (node.output(k).empty()) continue;
    ValueState& s = values_[node.output(k)];
    s.known = true;
    s.producer = index;
    s.is_static = dynamic.empty();
  }
  if (op.lowering == Lowering::alias) {  // Identity, Dropout: output 0 is input 0
    const std::string source = canonical(node.input(0));
    static_cast<void>(state(source));
    values_[node.output(0)].alias = source;
    for (int k = 1; k < node.output_size(); ++k) {
      if (!node.output(k).empty())
        values_[node.output(k)].unavailable =
            node.op_type() + "'s output " + std::to_string(k) + " is not supported";
    }
    return;
  }
  if (dynamic.empty()) return;  // folded: every data input is known at import
  if (op.lowering == Lowering::fold) {
    const bool fed =
        state(dynamic).producer < 0;  // a graph input the file does not mark as a weight
    fail("is computed at import only, but reads '" + dynamic + "', " +
         (fed ? std::string("a graph input fed at run time (weights exported as inputs are named "
                            "by their module path, "
                            "with a '.', or onnx::...; docs/ONNX.md)")
              : std::string("a value known only at run time")));
  }
  // Multi-output ops other than Split: their extra outputs (LayerNormalization's mean,
  // MaxPool's indices) are not modelled.
  const int outputs =
      node.op_type() == "Split" ? node.output_size() : std::min(node.output_size(), 1);
  for (int k = outputs; k < node.output_size(); ++k) {
    if (!node.output(k).empty())
      values_[node.output(k)].unavailable =
          node.op_type() + "'s output " + std::to_string(k) + " is not supported";
  }
  switch (op.lowering) {
    case Lowering::same: {
      std::vector<ir::Input> inputs;
      for (int k = 0; k < node.input_size(); ++k) {
        if (!node.input(k).empty() && is_data_input(op, k)) inputs.push_back(data(node.input(k)));
      }
      std::vector<ir::TensorType> types;
      for (int k = 0; k < outputs; ++k) types.push_back(type_of(node.output(k)));
      const ir::Input x = add(op.kind, "", std::move(inputs), std::move(types),
                              op.kind == ir::OpKind::other ? std::string(op.kind_name) : "");
      for (int k = 0; k < outputs; ++k) bind(k, ir::Input{x.node, k});
      return;
    }
    case Lowering::view:
      bind(0, reshape(data(node.input(0)), type_of(node.output(0)).shape, ""));
      return;
    case Lowering::matmul:
      lower_matmul(*this);
      return;
    case Lowering::gemm:
      lower_gemm(*this);
      return;
    case Lowering::conv:
      lower_conv(*this);
      return;
    case Lowering::layer_norm:
      lower_layer_norm(*this);
      return;
    case Lowering::gelu:
      lower_gelu(*this);
      return;
    case Lowering::alias:
    case Lowering::fold:
      return;  // handled above
  }
}

ir::Graph Lowerer::run() {
  const ::onnx::GraphProto& g = model_.model.graph();
  for (int i = 0; i < g.node_size(); ++i) lower_node(i);
  node_ = nullptr;
  std::vector<ir::Input> heads;
  for (const auto& out : g.output()) heads.push_back(data(out.name()));

  // Only what the outputs read; ids stay in creation order, which is topological.
  std::vector<char> live(nodes_.size(), 0);
  for (const ir::Input& h : heads) live[static_cast<size_t>(h.node)] = 1;
  for (size_t id = nodes_.size(); id-- > 0;) {
    if (!live[id]) continue;
    for (const ir::Input& in : nodes_[id].inputs) live[static_cast<size_t>(in.node)] = 1;
  }
  std::vector<ir::NodeId> new_id(nodes_.size(), -1);
  ir::Graph out;
  out.set_source(model_.name);
  out.reserve(static_cast<size_t>(std::count(live.begin(), live.end(), 1)));
  for (size_t id = 0; id < nodes_.size(); ++id) {
    if (!live[id]) continue;
    ir::Node n = std::move(nodes_[id]);
    for (ir::Input& in : n.inputs) in.node = new_id[static_cast<size_t>(in.node)];
    new_id[id] = out.add(std::move(n));
  }
  for (const ir::Input& h : heads)
    out.add_head(ir::Input{new_id[static_cast<size_t>(h.node)], h.output});
  nodes_.clear();
  out.validate();
  return out;
}

}  // namespace lightcode::frontend::onnx_detail
