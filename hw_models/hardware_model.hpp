#pragma once
// The contract every hardware family implements. A model is built once from its spec, then
// asked millions of times by the selector: supports/algorithms/estimate are const, pure,
// thread-safe and allocation-free (algorithms() fills a small fixed array).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hw_models/capabilities.hpp"
#include "hw_models/cost.hpp"
#include "sim/ir/fusion.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::hw {

// An algorithm is a way one family runs an op ("tensor_core", "cuda_core", "task_parallel").
// Ids are small integers local to a family; names come from the family's registration.
using AlgorithmId = uint8_t;

struct AlgorithmList {
  static constexpr int kMax = 4;
  std::array<AlgorithmId, kMax> ids{};
  int count = 0;
  void add(AlgorithmId id) { ids[static_cast<size_t>(count++)] = id; }
  bool empty() const { return count == 0; }
};

class HardwareModel {
 public:
  virtual ~HardwareModel() = default;

  // What the optimizer, schedulers, engine and reports need to know about the unit.
  virtual Capabilities capabilities() const = 0;
  // Independent units the scheduler may place tasks on (CPU cores, PHU cores; 1 GPU device).
  virtual int unit_count() const = 0;
  // The algorithms able to run `op` on this hardware, preferred first; empty = unsupported.
  virtual AlgorithmList algorithms(const ir::Node& op) const = 0;
  virtual std::string_view algorithm_name(AlgorithmId id) const = 0;
  virtual Cost estimate(const ir::Node& op, AlgorithmId algorithm) const = 0;
  // Fused kernels (sim/ir/fusion.hpp): whether this unit runs the groups rule `rule` proposes
  // as one task, and what one costs. Precondition of estimate_fused: fuses(kernel.rule).
  virtual bool fuses(std::string_view rule) const {
    (void)rule;
    return false;
  }
  virtual Cost estimate_fused(const ir::FusedKernel& kernel) const;
  // The most bits a matrix product may require here (sim/ir/precision.hpp); algorithms()
  // is empty for a product requiring more. None: the unit models no precision and runs any.
  virtual std::optional<int> max_product_bits() const { return std::nullopt; }
  // Power drawn whether busy or idle, per unit (W); 0 where the original had none.
  virtual double static_power_watts() const { return 0.0; }

  bool supports(const ir::Node& op) const { return !algorithms(op).empty(); }
};

}  // namespace lightcode::hw
