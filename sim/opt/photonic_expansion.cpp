#include "sim/opt/photonic_expansion.hpp"

#include <string>
#include <utility>
#include <vector>

#include "sim/core/checked.hpp"

namespace lightcode::opt {
namespace {
constexpr std::string_view kOperands = "the operand elements of a photonic product";
}  // namespace

ir::Node synthetic(ir::OpKind kind, std::string name, std::vector<ir::TensorType> inputs,
                   std::vector<ir::TensorType> outputs) {
  ir::Node n;
  n.name = std::move(name);
  n.kind = kind;
  n.kind_name = std::string(ir::op_kind_name(kind));
  n.inputs.resize(inputs.size());
  n.input_types = std::move(inputs);
  n.outputs = std::move(outputs);
  return n;
}

int64_t PhotonicExpansion::rounds(const hw::System& system) const {
  const int64_t instances = system.model(unit).unit_count();
  return (products + instances - 1) / instances;
}

PhotonicExpansion plan_photonic_expansion(const hw::System& system, const ir::Node& op, hw::UnitType unit,
                                          hw::AlgorithmId algorithm) {
  PhotonicExpansion x;
  x.staging = system.role_unit(hw::Role::staging);
  x.unit = unit;
  x.algorithm = algorithm;
  const ir::TensorType& a = op.input_type(0);
  const ir::TensorType& b = op.input_type(1);
  const ir::TensorType& o = op.output();
  x.m = a.shape.from_back(2);
  x.k = a.shape.back();
  x.n = b.shape.from_back(2);
  const int64_t per_product = checked_mul(x.m, x.n, "the elements of one 2-D product");
  // A product of empty matrices still runs once (and takes no time).
  x.products = op.kind == ir::OpKind::matmul && per_product > 0 ? o.shape.elements() / per_product : 1;
  const ir::TensorType pa{ir::Shape{x.m, x.k}, a.dtype}, pb{ir::Shape{x.n, x.k}, b.dtype}, po{ir::Shape{x.m, x.n}, o.dtype};

  const hw::HardwareModel& staging = system.model(x.staging);
  x.split = synthetic(ir::OpKind::sram_split, op.name + "/split", op.input_types, op.input_types);
  x.split_cost = staging.estimate(x.split, 0);
  x.product = synthetic(ir::OpKind::matrix_matrix, op.name + "/mm", {pa, pb}, {po});
  x.product.required_bits = op.required_bits;  // each 2-D product keeps the op's precision
  x.product_cost = system.model(unit).estimate(x.product, algorithm);
  x.merge = synthetic(ir::OpKind::sram_merge, op.name + "/merge", {po}, op.outputs);
  x.merge_cost = staging.estimate(x.merge, 0);

  // What crosses the feed and drain edges: nothing in the lightcode profile (the original
  // charges those edges no energy), the operands and the result otherwise.
  const bool move = system.profile().expansion_edges_move_data();
  const ir::TensorType none{ir::Shape{0}, o.dtype};
  const int64_t operand_elements =
      checked_add(checked_mul(x.m, x.k, kOperands), checked_mul(x.n, x.k, kOperands), kOperands);
  const ir::TensorType operands{ir::Shape{operand_elements}, a.dtype};
  x.operands_in = system.transfers().estimate(move ? operands : none, x.staging, unit);
  x.result_out = system.transfers().estimate(move ? po : none, unit, x.staging);
  return x;
}

}  // namespace lightcode::opt
