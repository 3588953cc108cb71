#pragma once
// Fused-kernel candidates: connected groups of ops that one kernel can run, found by
// registered fusion rules, each a small pattern over the IR. A group is convex (no path leaves
// it and comes back), holds no memory node, and is described by a FusedKernel: the IR facts a
// cost model needs (its class, external operands and results, the matrix-product shape, the
// element-wise work), self-contained so that schedulers and SystemC modules can carry it.
//
// Rules (fusion_rules(), in this order; docs/CONFIG.md lists them):
//   gemm_epilogue    a dense/matmul and the element-wise ops that follow it (bias, residual
//                    add, activation), reading their other operands in the epilogue;
//   horizontal_gemm  dense ops reading the same tensor (through views) with the same K and
//                    dtype (q/k/v, gate/up): one GEMM over the concatenated N;
//   norm             a mean reduction and the element-wise ops around it (LayerNorm,
//                    RMSNorm with its casts);
//   rope             rotate_half (slices, negative, concatenate) with its cos/sin products
//                    and the layout change before it;
//   activation       a sigmoid/tanh/erf and the element-wise ops around it (SiLU * up, GELU);
//   attention        scores product, scale, mask, softmax and context product as one
//                    FlashAttention-style kernel: no [T, T] tensor leaves the chip.
// Rules only propose: which groups run fused is the selector's choice (an exact cover).
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/ir/graph.hpp"

namespace lightcode::ir {

enum class KernelClass : uint8_t { gemm, attention, norm, rope, activation };

std::string_view kernel_class_name(KernelClass c);

// One non-product op of a group: its kind and the elements it produces (reductions: the
// elements they read), for models that count per-element work.
struct ElementOp {
  OpKind kind = OpKind::other;
  int64_t elements = 0;
};

struct FusedKernel {
  KernelClass cls = KernelClass::gemm;
  std::string_view rule;           // the registered rule that proposed it (static storage)
  std::vector<NodeId> members;     // ascending ids
  NodeId anchor = -1;              // the op that names the kernel (the product, the reduction, ...)
  std::vector<TensorType> inputs;  // external operands, each producer output once (weights too)
  std::vector<TensorType> outputs;     // member results read outside the group or graph outputs
  std::vector<ElementOp> element_ops;  // every member but matrix products and views
  // Matrix part. gemm: batch x [m, k] x [k, n], n summed over a horizontal group's products;
  // attention: batch = query heads, m = queries, n = keys, k = head dim.
  int64_t batch = 0, m = 0, n = 0, k = 0;
  int64_t products = 0;          // matrix products fused (horizontal: 2 or 3; attention: 2)
  DType dtype = DType::float32;  // operand type of the products
  // attention: the mask is causal (queries attend to keys up to their position), so a
  // FlashAttention kernel skips the tiles above the diagonal. Inferred from a mask operand of
  // [.., m, n] (the models here build causal masks; a padding-only mask is not told apart).
  bool causal = false;
};

// A rule appends the groups it finds; `rank` is each node's topological position and `uses`
// the graph's consumers (both computed once per graph).
struct FusionContext {
  const Graph& graph;
  const std::vector<std::vector<Graph::Use>>& uses;
  const std::vector<int32_t>& rank;
};

struct FusionRule {
  std::string_view name;
  std::string_view description;
  KernelClass cls;
  void (*match)(const FusionContext& context, std::vector<FusedKernel>& out);
};

const std::vector<FusionRule>& fusion_rules();
// Throws lightcode::Error naming the unknown rule and listing the known ones.
const FusionRule& fusion_rule_named(std::string_view name);

// Every group the given rules propose, deduplicated (equal member sets keep the first rule's),
// in order of their lowest member id. Deterministic.
std::vector<FusedKernel> match_fusions(const Graph& graph,
                                       const std::vector<const FusionRule*>& rules);

}  // namespace lightcode::ir
