#pragma once
// How a matrix product placed on a photonic unit runs: the one plan that opt::expand emits as
// tasks and that the row split's balance (split_product.hpp) times, so the two never differ.
//   op       dense [.., M, K] x [N, K] or matmul (batch_matmul) [B.., M, K] x [B.., N, K]
//            -> [.., M, N]; pack counts as a dense. M, K, N are the operands' last axes.
//   split    an sram_split on the system's staging memory (System::role_unit(Role::staging)):
//            the op's inputs in, the same tensors out; one bookkeeping op.
//   products `products` 2-D products (matrix_matrix [M, K] x [N, K] -> [M, N]) on the unit with
//            the given algorithm, each costed on its own shapes and keeping the op's required
//            bits: one per batch element of a matmul (its output's elements / (M N)), one for
//            any other product or an empty one. They run on the unit's instances in
//            rounds() rounds.
//   feed     split -> each product: its two operands as one tensor of M K + N K elements of
//            input 0's dtype, staging -> unit (operands_in);
//   drain    each product -> merge: its [M, N] result, unit -> staging (result_out);
//            under a profile whose expansion edges move no data (the lightcode profile), feed
//            and drain carry an empty tensor: their link time, no bytes.
//   merge    an sram_merge on the staging memory: the [M, N] result in, the op's outputs out.
// Costs come from the system's cost models and transfer model, unrounded beyond theirs. Errors
// (lightcode::Error): a count that overflows names the quantity; a missing route is the
// transfer model's error. The op's own inputs reaching the staging memory, and the merged
// result leaving it, are the caller's edges.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::opt {

struct PhotonicExpansion {
  hw::UnitType staging = -1;  // where the split and merge run
  hw::UnitType unit = -1;     // the photonic unit
  hw::AlgorithmId algorithm = 0;
  int64_t m = 0, k = 0, n = 0;
  int64_t products = 1;  // 2-D products, >= 1
  ir::Node split, product, merge;  // as the cost models read them: "<op>/split", "<op>/mm", "<op>/merge"
  hw::Cost split_cost, product_cost, merge_cost;
  hw::Cost operands_in;  // feed: one product's operands, staging -> unit
  hw::Cost result_out;   // drain: one product's result, unit -> staging

  // The products' rounds over the unit's instances: ceil(products / instances).
  int64_t rounds(const hw::System& system) const;
};

// A node as cost models read it (kind, name, operand and result types), its inputs not wired:
// the expansion's steps, and the other nodes the optimizer makes up (a start, a row slice).
ir::Node synthetic(ir::OpKind kind, std::string name, std::vector<ir::TensorType> inputs,
                   std::vector<ir::TensorType> outputs);

// Precondition: `op` is a matrix product (ir::is_matrix_product) with two inputs and one
// output, and `unit` is photonic and offers `algorithm` for it.
PhotonicExpansion plan_photonic_expansion(const hw::System& system, const ir::Node& op, hw::UnitType unit,
                                          hw::AlgorithmId algorithm);

}  // namespace lightcode::opt
