#include "sim/serve/batching.hpp"

#include "sim/core/limits.hpp"

namespace lightcode::serve {

const ParamTable& batching_table() {
  static const ParamTable table{
      "scenario.batching",
      "How a replica forms its iterations: `policy` chooses a registered batching policy, whose "
      "own keys (below, and `lightcode list batching`) sit beside it. A replica's own keys are "
      "merged over these.",
      {
          Param::text("policy").fallback("continuous").doc(
              "a registered batching policy: continuous (iteration-level, chunked prefill), static "
              "(whole batches) or prefill_first (vLLM without chunked prefill)"),
      }};
  return table;
}

const Param& max_batch_row() {
  static const Param row =
      Param::count("max_batch", limits::kBatchSequences).fallback("32").doc("sequences in one iteration at most");
  return row;
}

}  // namespace lightcode::serve
