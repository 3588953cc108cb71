// lightcode._core.inspect: a model's graph (TVM/ONNX file or built-in model) as the summary
// `lightcode inspect` prints and one row per node, column by column (bindings.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "frontend/load_model.hpp"
#include "python/bindings/bindings.hpp"
#include "sim/ir/metrics.hpp"

namespace py = pybind11;

namespace lightcode::python {
namespace {

std::string shapes_text(const std::vector<ir::TensorType>& types) {
  std::string s;
  for (const ir::TensorType& t : types) s += (s.empty() ? "" : ", ") + t.shape.str();
  return s;
}

py::dict node_columns(const ir::Graph& g) {
  std::vector<int64_t> id, macs, flops;
  std::vector<std::string> name, kind, inputs, input_shapes, output_shapes, dtype;
  for (size_t i = 0; i < g.size(); ++i) {
    const ir::Node& n = g.node(static_cast<ir::NodeId>(i));
    id.push_back(static_cast<int64_t>(i));
    name.push_back(n.name);
    kind.push_back(n.kind_name.empty() ? std::string(ir::op_kind_name(n.kind)) : n.kind_name);
    std::string producers;
    for (const ir::Input& in : n.inputs) producers += (producers.empty() ? "" : ",") + std::to_string(in.node);
    inputs.push_back(producers);
    input_shapes.push_back(shapes_text(n.input_types));
    output_shapes.push_back(shapes_text(n.outputs));
    dtype.push_back(n.outputs.empty() ? "" : std::string(ir::dtype_name(n.output().dtype)));
    macs.push_back(ir::node_macs(n));
    flops.push_back(ir::node_flops(n));
  }
  py::dict d;
  d["id"] = id;
  d["name"] = name;
  d["kind"] = kind;
  d["inputs"] = inputs;
  d["input_shapes"] = input_shapes;
  d["output_shapes"] = output_shapes;
  d["dtype"] = dtype;
  d["macs"] = macs;
  d["flops"] = flops;
  return d;
}

py::dict summary_dict(const ir::Graph& g, const ir::GraphSummary& s) {
  py::dict d;
  d["source"] = g.source();
  d["nodes"] = s.nodes;
  d["memory_nodes"] = s.memory_nodes;
  d["kinds"] = s.kinds;
  d["macs"] = s.macs;
  d["flops"] = s.flops;
  d["parameter_bytes"] = s.parameter_bytes;
  d["input_bytes"] = s.input_bytes;
  d["activation_bytes"] = s.activation_bytes;
  return d;
}

py::dict inspect(const std::string& model, const std::string& stage, std::optional<int64_t> length,
                 const std::string& logits, std::optional<int64_t> traced_length) {
  frontend::ModelRequest req;
  req.model = model;
  req.stage = frontend::parse_stage(stage);
  req.length = length;
  req.traced_length = traced_length;
  req.logits = frontend::parse_logits(logits);
  ir::Graph g;
  ir::GraphSummary s;
  {
    const py::gil_scoped_release unlocked;
    g = frontend::load_model(req);
    s = ir::summarize(g, 0);
  }
  py::dict d;
  d["summary"] = summary_dict(g, s);
  d["nodes"] = node_columns(g);
  return d;
}

}  // namespace

void register_graphs(py::module_& m) {
  m.def("inspect", &inspect, py::arg("model"), py::arg("stage"), py::arg("length"), py::arg("logits"),
        py::arg("traced_length"),
        "A model's graph: {summary: as `lightcode inspect`, nodes: {column: [values]}}.");
}

}  // namespace lightcode::python
