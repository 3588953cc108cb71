// lightcode._core.cost: what each unit of a system would take for one op — every algorithm
// the unit's cost model offers for it, with the Cost the selector and the schedulers use
// (HardwareModel::estimate: pure, the same function the SystemC modules call). The op is a
// node of a model's graph (by name or id) or one described by kind, operand shapes and dtype.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "python/bindings/bindings.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"

namespace py = pybind11;

namespace lightcode::python {
namespace {

ir::Shape to_shape(const std::vector<int64_t>& dims, const std::string& what) {
  ir::Shape s;
  for (int64_t d : dims) {
    if (d < 1) throw Error(what + ": dimensions must be positive, got " + std::to_string(d));
    if (s.rank() == ir::Shape::kMaxRank) throw Error(what + ": more than " + std::to_string(ir::Shape::kMaxRank) + " dimensions");
    s.push_back(d);
  }
  return s;
}

// A graph of one op: a memory node per operand, then the op, from the description's fields.
ir::Graph described_op(const std::string& kind, const std::vector<std::vector<int64_t>>& inputs,
                       const std::vector<int64_t>& output, const std::string& dtype_text,
                       const std::vector<std::pair<std::string, std::string>>& attrs) {
  const ir::OpKind k = ir::parse_op_kind(kind);
  if (k == ir::OpKind::other) throw Error("op kind '" + kind + "' is not one LightCode models (`lightcode list` shows the kinds)");
  const std::optional<ir::DType> dtype = ir::parse_dtype(dtype_text);
  if (!dtype) throw Error("op dtype '" + dtype_text + "' is not a dtype (float32, float16, int8, ...)");
  ir::Graph g;
  ir::Node op;
  op.kind = k;
  op.kind_name = kind;
  op.name = kind;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ir::Node operand;
    operand.kind = ir::OpKind::memory;
    operand.kind_name = std::string(ir::op_kind_name(ir::OpKind::memory));
    operand.name = "operand" + std::to_string(i);
    operand.role = ir::MemoryRole::input;
    operand.outputs.push_back({to_shape(inputs[i], "op input " + std::to_string(i)), *dtype});
    op.inputs.push_back({g.add(std::move(operand)), 0});
  }
  op.outputs.push_back({to_shape(output, "op output"), *dtype});
  for (const auto& [key, value] : attrs) op.attrs.push_back({key, value});
  g.add(std::move(op));
  g.validate();
  return g;
}

ir::NodeId find_node(const ir::Graph& g, const py::object& node) {
  if (py::isinstance<py::int_>(node)) {
    const int64_t id = node.cast<int64_t>();
    if (id < 0 || id >= static_cast<int64_t>(g.size())) {
      throw Error("node " + std::to_string(id) + " is not in " + g.source() + " (ids 0.." + std::to_string(g.size() - 1) + ")");
    }
    return static_cast<ir::NodeId>(id);
  }
  const std::string name = node.cast<std::string>();
  for (size_t i = 0; i < g.size(); ++i) {
    if (g.node(static_cast<ir::NodeId>(i)).name == name) return static_cast<ir::NodeId>(i);
  }
  throw Error("no node named '" + name + "' in " + g.source() + " (lightcode.inspect lists the nodes)");
}

py::dict cost(const std::string& system_path, const std::string& profile, const std::optional<std::string>& model,
              const std::string& stage, std::optional<int64_t> length, const py::object& node,
              const std::optional<py::dict>& op) {
  ir::Graph g;
  ir::NodeId id = 0;
  if (op) {
    const py::dict& d = *op;
    std::vector<std::pair<std::string, std::string>> attrs;
    if (d.contains("attrs")) {
      for (const auto& item : d["attrs"].cast<py::dict>()) {
        attrs.emplace_back(py::str(item.first).cast<std::string>(), py::str(item.second).cast<std::string>());
      }
    }
    g = described_op(d["kind"].cast<std::string>(), d["inputs"].cast<std::vector<std::vector<int64_t>>>(),
                     d["output"].cast<std::vector<int64_t>>(),
                     d.contains("dtype") ? d["dtype"].cast<std::string>() : std::string("float32"), attrs);
    id = static_cast<ir::NodeId>(g.size() - 1);
  } else {
    frontend::ModelRequest req;
    req.model = *model;
    req.stage = frontend::parse_stage(stage);
    req.length = length;
    g = frontend::load_model(req);
    id = find_node(g, node);
  }
  const ir::Node& n = g.node(id);
  std::vector<std::string> unit, family, algorithm, bound;
  std::vector<bool> supported;
  std::vector<int64_t> time_ps, bytes_read, bytes_written;
  std::vector<double> time_s, energy_pj, conversion_pj;
  {
    const py::gil_scoped_release unlocked;
    const hw::System system = hw::System::load(system_path, hw::profile_named(profile));
    for (size_t t = 0; t < system.unit_count(); ++t) {
      const hw::UnitInfo& u = system.unit(static_cast<hw::UnitType>(t));
      if (!u.compute) continue;
      const hw::HardwareModel& m = system.model(static_cast<hw::UnitType>(t));
      const hw::AlgorithmList algorithms = m.algorithms(n);
      for (int a = 0; a < std::max(1, algorithms.count); ++a) {
        unit.push_back(u.name);
        family.push_back(u.family->name);
        supported.push_back(!algorithms.empty());
        if (algorithms.empty()) {  // a row saying so: the op has no candidate on this unit
          algorithm.emplace_back();
          bound.emplace_back();
          time_ps.push_back(0);
          time_s.push_back(0.0);
          energy_pj.push_back(0.0);
          conversion_pj.push_back(0.0);
          bytes_read.push_back(0);
          bytes_written.push_back(0);
          continue;
        }
        const hw::AlgorithmId algo = algorithms.ids[static_cast<size_t>(a)];
        const hw::Cost c = m.estimate(n, algo);
        algorithm.emplace_back(m.algorithm_name(algo));
        bound.emplace_back(hw::bound_name(c.bound));
        time_ps.push_back(c.time.count_ps());
        time_s.push_back(c.time.seconds());
        energy_pj.push_back(c.energy.picojoules());
        conversion_pj.push_back(c.conversion_energy.picojoules());
        bytes_read.push_back(c.bytes_read);
        bytes_written.push_back(c.bytes_written);
      }
    }
  }
  py::dict rows;
  rows["unit"] = unit;
  rows["family"] = family;
  rows["supported"] = supported;
  rows["algorithm"] = algorithm;
  rows["time_ps"] = time_ps;
  rows["time_s"] = time_s;
  rows["energy_pj"] = energy_pj;
  rows["conversion_energy_pj"] = conversion_pj;
  rows["bytes_read"] = bytes_read;
  rows["bytes_written"] = bytes_written;
  rows["bound"] = bound;
  py::dict d;
  d["op"] = py::dict(py::arg("name") = n.name, py::arg("kind") = n.kind_name, py::arg("macs") = ir::node_macs(n),
                     py::arg("flops") = ir::node_flops(n));
  d["rows"] = rows;
  return d;
}

}  // namespace

void register_costs(py::module_& m) {
  m.def("cost", &cost, py::arg("system"), py::arg("profile"), py::arg("model"), py::arg("stage"), py::arg("length"),
        py::arg("node"), py::arg("op"),
        "Each compute unit's algorithms and Cost for one op: {op: {...}, rows: {column: [values]}}.");
}

}  // namespace lightcode::python
