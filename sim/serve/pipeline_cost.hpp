#pragma once
// An iteration's cost from the real pipeline: the batch's graph (frontend::build_iteration,
// Logits::last, the profile's input rule), its stacks, the profile's partition, the placement
// (opt::place's exact sum selection, or the joint search with product splitting as a point
// runs it, joint::place_with_splits), its expansion, the
// scheduling policy's analytical timeline and sched::reported_cost. It returns the makespan
// (ps) and the DYNAMIC energy only (tasks and transfers, pJ): the serving run charges static
// power itself over the whole run, busy or idle (ReplicaSpec::static_power_w), so charging it
// per iteration too would count it twice.
//
// Memoised by the batch's shape: the key is (new_tokens, context) per sequence in batch order
// (order barely changes the cost, but keeping it keeps the answer exact). context_bucket > 0
// rounds every context UP to a multiple of the bucket before building, so one graph serves a
// whole bucket; it over-estimates attention and KV reads by less than one bucket of tokens
// per sequence. Measured (tests/unit/serve/test_pipeline_cost.cpp, gpt2 on the GPU system,
// bucket 64): time up to 19 % over where a context lies in the first bucket (1 built as 64; GPU
// time moves in attention-tile steps), up to 6 % past it; dynamic energy under 3 %. Contexts that
// would round past limits::kSequenceLength are clamped to it.
//
// The cache is a mutable member behind the const estimate(): not thread-safe; give each
// thread its own instance. The system is shared, so it lives as long as the cost does.
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/opt/objective.hpp"
#include "sim/sched/policy.hpp"
#include "sim/serve/iteration_cost.hpp"

namespace lightcode::serve {

struct PipelineCostOptions {
  int64_t context_bucket = 0;  // tokens; 0: exact contexts
  bool joint_search = false;   // joint::place_jointly instead of the sum selection (slower)
  int joint_evaluations = joint::kDefaultEvaluations;  // the joint search's budget
};

class PipelineIterationCost : public IterationCost {
 public:
  // `policy` must outlive the cost (the registry's policies live for the whole process).
  // lightcode::Error for a null system, a negative bucket or a joint budget < 1.
  PipelineIterationCost(frontend::ModelConfig model, std::shared_ptr<const hw::System> system,
                        opt::Objective objective, const sched::SchedulingPolicy& policy,
                        PipelineCostOptions options = {});

  // lightcode::Error for an invalid batch (frontend::validate_batch) or whatever the pipeline
  // throws for it (an op no unit supports, inputs the memory cannot hold, ...).
  IterationEstimate estimate(const frontend::Batch& batch) const override;

  // The batch whose graph is built for `batch`: contexts rounded up to the bucket.
  frontend::Batch bucketed(const frontend::Batch& batch) const;

  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }  // graphs built, placed and scheduled

 private:
  using Key = std::vector<std::pair<int64_t, int64_t>>;
  IterationEstimate run_pipeline(const frontend::Batch& batch) const;

  frontend::ModelConfig model_;
  std::shared_ptr<const hw::System> system_;
  opt::Objective objective_;
  const sched::SchedulingPolicy* policy_;
  PipelineCostOptions options_;
  mutable std::map<Key, IterationEstimate> cache_;
  mutable int64_t hits_ = 0, misses_ = 0;
};

}  // namespace lightcode::serve
