#include "frontend/onnx/onnx_model.hpp"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>

#include "frontend/onnx/onnx_ops.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend::onnx_detail {
namespace {

using ::onnx::TensorProto;
using ::onnx::TypeProto;

[[noreturn]] void fail_graph(const std::string& file, const std::string& path,
                             const std::string& message) {
  throw Error(SourcePlace{file, 0, 0, path}, message);
}

void check_name(const std::string& file, const std::string& path, const std::string& name) {
  if (static_cast<int64_t>(name.size()) > limits::kNameBytes.value) {
    fail_graph(file, path,
               "a name of " + std::to_string(name.size()) + " bytes is above the limit of " +
                   std::to_string(limits::kNameBytes.value) + " (" +
                   std::string(limits::kNameBytes.name) + ")");
  }
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A weight or buffer exported as a graph input (export_params=False): a fixed-size tensor named
// by its module path ("h.0.attn.c_attn.weight", "h.0.attn.bias") or by PyTorch's folded
// constants ("onnx::MatMul_37"). Token ids, masks, caches and images (named by the exporter's
// input_names, or with a symbolic axis) are inputs.
bool weight_input(const ::onnx::ValueInfoProto& in) {
  const auto& t = in.type().tensor_type();
  if (!in.type().has_tensor_type() || !t.has_shape()) return false;
  for (const auto& d : t.shape().dim()) {
    if (!d.has_dim_value()) return false;
  }
  const std::string& n = in.name();
  return n.find('.') != std::string::npos || n.rfind("onnx::", 0) == 0;
}

TypeProto type_of(const TensorProto& t) {
  TypeProto type;
  auto* tensor = type.mutable_tensor_type();
  tensor->set_elem_type(t.data_type());
  auto* shape = tensor->mutable_shape();
  for (int64_t d : t.dims()) shape->add_dim()->set_dim_value(d);
  return type;
}

// Whether symbolic axis `axis` of a rank-`rank` input is a batch axis (1), not a sequence axis.
bool batch_axis(const std::string& param, int axis, int rank) {
  return lower(param).find("batch") != std::string::npos ||
         (param.empty() && axis == 0 && rank >= 2);
}

// The dims of a graph input with its symbolic axes set (see the header).
TypeProto resolved_input(const std::string& file, int index, const ::onnx::ValueInfoProto& in,
                         std::optional<int64_t> length) {
  const std::string path = "graph.input[" + std::to_string(index) + "] '" + in.name() + "'";
  if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) {
    fail_graph(
        file, path,
        "a graph input without a tensor shape (only tensors with known ranks are supported)");
  }
  TypeProto type = in.type();
  auto* shape = type.mutable_tensor_type()->mutable_shape();
  const int rank = shape->dim_size();
  for (int i = 0; i < rank; ++i) {
    auto* d = shape->mutable_dim(i);
    if (d->has_dim_value()) {
      if (d->dim_value() < 0) fail_graph(file, path, "axis " + std::to_string(i) + " is negative");
      continue;
    }
    const std::string param = d->dim_param();
    if (batch_axis(param, i, rank)) {
      d->set_dim_value(1);  // one sequence: the batch is the built-in models' and TVM graphs' 1
      continue;
    }
    if (!length) {
      fail_graph(
          file, path,
          "axis " + std::to_string(i) + (param.empty() ? "" : " ('" + param + "')") +
              " is symbolic: give the sequence length (--seq, or sequence_length in a scenario)");
    }
    d->set_dim_value(*length);
  }
  return type;
}

bool static_shape(const TypeProto& t) {
  if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return false;
  for (const auto& d : t.tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return false;
  }
  return true;
}

// Einsum's output shape, which libonnx 1.12 infers as a rank only: each output letter's
// extent from the inputs ("i,j->ij": the rotary tables' outer product). Equations with an
// ellipsis or without "->" are left to libonnx.
std::optional<TypeProto> einsum_type(const ::onnx::NodeProto& node,
                                     const std::vector<const TypeProto*>& inputs) {
  std::string equation;
  for (const auto& a : node.attribute()) {
    if (a.name() == "equation") equation = a.s();
  }
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  const size_t arrow = equation.find("->");
  if (arrow == std::string::npos || equation.find('.') != std::string::npos) return std::nullopt;
  std::unordered_map<char, int64_t> extent;
  size_t term = 0, from = 0;
  const std::string lhs = equation.substr(0, arrow);
  while (from <= lhs.size()) {
    const size_t comma = std::min(lhs.find(',', from), lhs.size());
    if (term >= inputs.size() || !inputs[term] || !static_shape(*inputs[term])) return std::nullopt;
    const auto& dims = inputs[term]->tensor_type().shape().dim();
    if (static_cast<int>(comma - from) != dims.size()) return std::nullopt;
    for (size_t i = from; i < comma; ++i)
      extent[lhs[i]] = dims.Get(static_cast<int>(i - from)).dim_value();
    ++term;
    from = comma + 1;
  }
  TypeProto type = *inputs[0];
  auto* shape = type.mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (char c : equation.substr(arrow + 2)) {
    auto it = extent.find(c);
    if (it == extent.end()) return std::nullopt;
    shape->add_dim()->set_dim_value(it->second);
  }
  return type;
}

}  // namespace

std::string node_place(int index, const ::onnx::NodeProto& node) {
  return "graph.node[" + std::to_string(index) + "] '" + node.name() + "' (" + node.op_type() + ")";
}

void fail_node(const std::string& file, int index, const ::onnx::NodeProto& node,
               const std::string& message) {
  fail_graph(file, node_place(index, node), message);
}

ParsedModel parse_model(std::string_view bytes, const std::string& name) {
  ParsedModel m;
  m.name = name;
  if (!m.model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    fail_graph(name, "",
               "not an ONNX model: the bytes do not parse as an onnx.ModelProto (truncated, or "
               "another format)");
  }
  ::onnx::ModelProto& model = m.model;
  if (model.ir_version() < 1 || !model.has_graph() || model.graph().output_size() == 0) {
    fail_graph(name, "", "not an ONNX model: no ir_version, no graph or a graph without outputs");
  }
  for (const auto& o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") m.opset = o.version();
  }
  if (m.opset < 1) fail_graph(name, "opset_import", "no opset version for the default ONNX domain");
  ::onnx::GraphProto& g = *model.mutable_graph();
  if (g.node_size() > limits::kGraphNodes.value) {
    fail_graph(name, "graph",
               "has " + std::to_string(g.node_size()) + " nodes, above the limit of " +
                   std::to_string(limits::kGraphNodes.value) + " (" +
                   std::string(limits::kGraphNodes.name) + ")");
  }

  // Which values exist before the nodes: graph inputs and initializers.
  std::unordered_set<std::string> defined;
  for (int i = 0; i < g.input_size(); ++i) {
    check_name(name, "graph.input[" + std::to_string(i) + "]", g.input(i).name());
    defined.insert(g.input(i).name());
  }
  // Weights become typed inputs without data; small initializers (shape operands) stay.
  google::protobuf::RepeatedPtrField<TensorProto> kept;
  for (int i = 0; i < g.initializer_size(); ++i) {
    TensorProto& t = *g.mutable_initializer(i);
    const std::string path = "graph.initializer[" + std::to_string(i) + "] '" + t.name() + "'";
    check_name(name, path, t.name());
    if (t.dims_size() > limits::kTensorRank.value)
      fail_graph(name, path, "rank above " + std::to_string(limits::kTensorRank.value));
    for (int64_t d : t.dims()) {
      if (d < 0) fail_graph(name, path, "a negative dimension");
    }
    m.parameters.insert(t.name());
    const bool listed = !defined.insert(t.name()).second;  // also a graph input (older exporters)
    if (constant_of(t)) {
      kept.Add()->Swap(&t);
    } else if (!listed) {
      auto* in = g.add_input();
      in->set_name(t.name());
      *in->mutable_type() = type_of(t);
    }
  }
  g.mutable_initializer()->Swap(&kept);
  for (int i = 0; i < g.input_size(); ++i) {
    const auto& in = g.input(i);
    if (m.parameters.count(in.name())) continue;
    if (weight_input(in)) {
      m.parameters.insert(in.name());
      continue;
    }
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      const auto& dims = in.type().tensor_type().shape().dim();
      for (int k = 0; k < dims.size(); ++k) {
        const auto& d = dims.Get(k);
        if (!d.has_dim_value() && !batch_axis(d.dim_param(), k, dims.size())) m.symbolic = true;
      }
    }
  }

  for (int i = 0; i < g.node_size(); ++i) {
    const ::onnx::NodeProto& node = g.node(i);
    check_name(name, "graph.node[" + std::to_string(i) + "]", node.name());
    check_name(name, "graph.node[" + std::to_string(i) + "]", node.op_type());
    if (node.input_size() > limits::kNodeEdges.value ||
        node.output_size() > limits::kNodeEdges.value) {
      fail_node(name, i, node,
                "more inputs or outputs than the limit of " +
                    std::to_string(limits::kNodeEdges.value) + " (" +
                    std::string(limits::kNodeEdges.name) + ")");
    }
    const OnnxOp* op = find_onnx_op(node.domain(), node.op_type());
    if (!op) {
      fail_node(name, i, node,
                "unsupported ONNX op '" + (node.domain().empty() ? "" : node.domain() + ".") +
                    node.op_type() + "' (docs/ONNX.md lists the supported ops)");
    }
    const ::onnx::OpSchema* schema =
        ::onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(m.opset), "");
    if (!schema && op->lowering != Lowering::gelu) {
      fail_node(
          name, i, node,
          "libonnx has no schema for " + node.op_type() + " at opset " + std::to_string(m.opset));
    }
    if (!schema && (node.input_size() != 1 || node.output_size() != 1 || node.input(0).empty() ||
                    node.output(0).empty())) {
      fail_node(name, i, node,
                "malformed node: " + node.op_type() + " reads one input and writes one output");
    }
    if (schema) {
      try {
        schema->Verify(node);
      } catch (const std::exception& e) {
        fail_node(name, i, node, std::string("malformed node: ") + e.what());
      }
    }
    for (const std::string& in : node.input()) {
      check_name(name, node_place(i, node), in);
      if (!in.empty() && !defined.count(in)) {
        fail_node(name, i, node,
                  "reads '" + in +
                      "', which no earlier node, graph input or initializer defines "
                      "(ONNX lists nodes in topological order)");
      }
    }
    for (const std::string& out : node.output()) {
      check_name(name, node_place(i, node), out);
      if (out.empty()) continue;
      if (!defined.insert(out).second)
        fail_node(name, i, node, "defines '" + out + "' a second time");
    }
  }
  for (int i = 0; i < g.output_size(); ++i) {
    if (!defined.count(g.output(i).name())) {
      fail_graph(name, "graph.output[" + std::to_string(i) + "]",
                 "'" + g.output(i).name() + "' is defined by no node or input");
    }
  }
  return m;
}

TypedModel infer_types(const ParsedModel& m, std::optional<int64_t> sequence_length) {
  const ::onnx::GraphProto& g = m.model.graph();
  TypedModel t;
  std::unordered_map<std::string, TypeProto*> type_of_value;
  std::unordered_map<std::string, TensorProto> tensors;  // the constants, for libonnx
  std::unordered_map<std::string, const TensorProto*> data_of_value;
  auto set_type = [&](const std::string& value, TypeProto type) {
    TypeProto& stored = t.types[value] = std::move(type);
    type_of_value[value] = &stored;
  };
  auto set_constant = [&](const std::string& value, Constant c) {
    TensorProto& stored = tensors[value] = to_tensor(c);
    data_of_value[value] = &stored;
    t.constants[value] = std::move(c);
  };

  for (int i = 0; i < g.input_size(); ++i) {
    const auto& in = g.input(i);
    set_type(in.name(), resolved_input(m.name, i, in, sequence_length));
  }
  for (const TensorProto& init : g.initializer()) {
    set_type(init.name(), type_of(init));
    if (auto c = constant_of(init)) set_constant(init.name(), std::move(*c));
  }

  for (int i = 0; i < g.node_size(); ++i) {
    ::onnx::NodeProto node = g.node(i);  // libonnx's context takes it mutable
    std::vector<const TypeProto*> input_types;
    std::vector<const Constant*> input_values;
    for (const std::string& in : node.input()) {
      if (in.empty()) {
        input_types.push_back(nullptr);
        input_values.push_back(nullptr);
        continue;
      }
      auto type = type_of_value.find(in);
      if (type == type_of_value.end() || !type->second->has_tensor_type() ||
          type->second->tensor_type().elem_type() == TensorProto::UNDEFINED) {
        fail_node(m.name, i, node,
                  "the type of its input '" + in + "' is unknown after shape inference");
      }
      input_types.push_back(type->second);
      auto value = t.constants.find(in);
      input_values.push_back(value == t.constants.end() ? nullptr : &value->second);
    }
    const ::onnx::OpSchema* schema =
        ::onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(m.opset), "");
    if (schema && schema->has_type_and_shape_inference_function()) {
      ::onnx::shape_inference::InferenceContextImpl ctx(node, type_of_value, data_of_value, {},
                                                        nullptr, nullptr);
      try {
        schema->GetTypeAndShapeInferenceFunction()(ctx);
      } catch (const std::exception& e) {
        fail_node(m.name, i, node, std::string("shape inference failed: ") + e.what());
      }
      for (int k = 0; k < node.output_size(); ++k) {
        if (!node.output(k).empty())
          set_type(node.output(k), ctx.allOutputTypes_[static_cast<size_t>(k)]);
      }
    } else if (node.output_size() > 0 && !node.output(0).empty() && input_types.size() > 0 &&
               input_types[0]) {
      set_type(node.output(0), *input_types[0]);  // element-wise ops libonnx 1.12 predates (Gelu)
    }
    if (node.op_type() == "Einsum" && node.output_size() == 1 &&
        !static_shape(t.types[node.output(0)])) {
      if (auto type = einsum_type(node, input_types)) set_type(node.output(0), std::move(*type));
    }
    if (auto values = evaluate(node, input_values, input_types);
        values && values->size() == static_cast<size_t>(node.output_size())) {
      for (int k = 0; k < node.output_size(); ++k) {
        const std::string& out = node.output(k);
        if (out.empty()) continue;
        Constant& c = (*values)[static_cast<size_t>(k)];
        TypeProto type;
        type.mutable_tensor_type()->set_elem_type(c.elem_type);
        auto* shape = type.mutable_tensor_type()->mutable_shape();
        for (int64_t d : c.dims) shape->add_dim()->set_dim_value(d);
        set_type(out, std::move(type));
        set_constant(out, std::move(c));
      }
    }
  }
  return t;
}

}  // namespace lightcode::frontend::onnx_detail
