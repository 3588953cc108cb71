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
// Pricing is not holding: a batch is priced whatever memory its inputs would take. Whether a
// batch fits is the serving run's business, which knows the replica's KV capacity
// (replica_memory.hpp) and never exceeds it; the composed cost (composed_cost.hpp) asks costs
// at grid points beyond the capacity to interpolate between, and a full batch's token ids and
// masks take a few bytes beyond its KV tokens. (Checking each priced graph's inputs against
// the memory refused both: batches that fit failed with "does not fit".)
//
// Layers (LayerPricing; serving's `iteration_layers`, default `auto`: `all` up to 12 layers,
// `extrapolated` above). `all`: the model's every decoder layer in one graph. `extrapolated`,
// OUR APPROXIMATION: the batch is built with 1 and with 2 decoder layers (the same embedding,
// final norm and logits) and cost(L) = cost(1) + (L - 1) x (cost(2) - cost(1)), time in integer
// ps, dynamic energy in pJ (an increment below zero counts as zero: clamped()); models of one or
// two layers are built whole. The first layer differs from the others (its subgraph holds the
// masks and tables every layer reads), the second is a later layer. A layer of an L-layer graph
// ends where the next begins (every op of a layer reads the previous layer's output), so where
// each layer is placed alike the increment is exact. Measured against `all` (placement by the
// joint search, 64 evaluations; max / mean relative error of time, then of dynamic energy, %;
// tests/unit/serve/test_layer_pricing.cpp: batches of decodes, of whole prompts, and of decodes
// with prefill chunks):
//   gpt2 (12 layers), up to 8 seq.   h100_sxm    time     4.9 / 0.51     23 / 3.0
//                                    h100_sxm    energy   0 / 0 (exact)  1e-12
//                                    gpu_dota_b  time     8.2 / 2.2      48 / 12
//                                    gpu_dota_b  energy   33 / 1.4       4.2 / 0.18
//   llama-2-7b (32), up to 4 seq.    h100_sxm    time     1.2 / 0.28     0.41 / 0.10
//                                    h100_sxm    energy   0 / 0 (exact)  1e-12
//                                    gpu_dota_b  time     1.4 / 0.41     0.65 / 0.15
//                                    gpu_dota_b  energy   0 / 0 (exact)  1e-12
// (tests/bench/bench_serve.cpp layer_pricing_llama measures llama-2-7b batches of up to 16
// sequences, with each side's CPU time.)
// Where it is not exact the placement differs, not the arithmetic: two placements nearly tie
// at one or two layers and grow at different rates per layer, so the L-layer search picks the
// other one (gpt2 on h100_sxm, 7 decodes and a chunk: two placements 0.02 % apart in time at
// 8 layers, 18 % apart in energy; at 12 layers the other one wins). The objective's own figure
// moves little; the other one (energy under the time objective) can move a lot. A single
// request (one sequence) of gpt2 on h100_sxm is exact, as `stage: generate` gives it
// (tests/unit/sweep/test_serve_run.cpp).
// What it saves: the graphs are 1 and 2 layers instead of L, so expansion, scheduling and the
// joint search's evaluations shrink by about L / 3; the selection (opt::place) solves each
// distinct subgraph once whatever the layer count, and the first layer's subgraph is solved in
// both graphs. For llama-2-7b batches the selection's dynamic programme (the joint search's
// time and energy seeds) is still most of the time (docs/PERFORMANCE.md, "Serving Llama-class
// models").
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
// thread its own instance (the instance's own pricing threads, options.threads, share only
// what is safe to share: the graph count and the placement reuse). The system is shared, so it lives as long as the cost does.
#include <atomic>
#include <cstdint>
#include <map>
#include <string_view>
#include <memory>
#include <utility>
#include <vector>

#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/opt/objective.hpp"
#include "sim/sched/policy.hpp"
#include "sim/sched/reported_cost.hpp"
#include "sim/serve/iteration_cost.hpp"

namespace lightcode::serve {

// How a batch's decoder layers are priced (see the header comment): every layer in one graph,
// one and two layers built and extrapolated to the model's count (our approximation), or
// `automatic`: every layer for a model of at most kAllLayersUpTo decoder layers, extrapolated
// above.
enum class LayerPricing { all, extrapolated, automatic };
std::string_view layer_pricing_name(LayerPricing p);  // "all", "extrapolated", "auto"
LayerPricing parse_layer_pricing(std::string_view name);  // lightcode::Error naming the choices
// The pricing a serving point uses unless its scenario says (`iteration_layers`: the one home
// of that key's default).
inline constexpr LayerPricing kDefaultLayerPricing = LayerPricing::automatic;
// `automatic` builds every layer up to this many: gpt2's 12 (the shipped GPT-2 serving studies
// keep their exact figures). There all layers are cheap (a gpt2 batch of up to 32 sequences
// takes 17-36 ms: docs/PERFORMANCE.md) and the extrapolation errs most (the table above: up to
// 8 % in time against 1.4 % for llama-2-7b); a 32-layer Llama batch takes seconds.
inline constexpr int64_t kAllLayersUpTo = 12;
// Whether `pricing` builds a model of `layers` decoder layers whole.
bool builds_every_layer(LayerPricing pricing, int64_t layers);

// Whether the joint search's placements are reused across batches (joint::PlacementReuse,
// sim/joint/placement_reuse.hpp: OUR APPROXIMATION): `none` searches every graph; `by_class`
// takes each batch's placement from its representative's search (representative_batch) unless
// list scheduling shows the batch's sizes moved the answer. Serving's `placement_reuse`.
// Measured (docs/PERFORMANCE.md, "Placement reuse"): 50 llama-2-7b requests on h100_sxm at
// 4 req/s, 22.2 s of CPU with none, 16.5 s with by_class, whose mean TTFT is 10.6 % higher
// (0.0331 s against 0.0300 s; p99 4 % lower, TPOT 0.9 % lower): placements do change with the
// sizes of a prefill chunk in ways the guard does not see, so `none` is the default.
enum class PlacementReuseMode { none, by_class };
std::string_view placement_reuse_name(PlacementReuseMode r);      // "none", "by_class"
PlacementReuseMode parse_placement_reuse(std::string_view name);  // lightcode::Error naming the choices
// The one home of `placement_reuse`'s default.
inline constexpr PlacementReuseMode kDefaultPlacementReuse = PlacementReuseMode::none;

struct PipelineCostOptions {
  int64_t context_bucket = 0;  // tokens; 0: exact contexts
  LayerPricing layers = LayerPricing::all;
  // How each batch's graph runs attention (frontend::build_iteration): serving's `attention`.
  frontend::BatchAttention attention = frontend::BatchAttention::per_sequence;
  // A replica of several devices: each batch is built as rank 0's share of the group, and its
  // dynamic energy is the group's (every other rank spends the device units' share again:
  // sched::device_dynamic_pj).
  int64_t tensor_parallel = 1;
  PlacementReuseMode reuse = PlacementReuseMode::none;  // joint search only
  bool joint_search = false;   // joint::place_jointly instead of the sum selection (slower)
  int joint_evaluations = joint::kDefaultEvaluations;  // the joint search's budget
  // Layers extrapolated: 2 prices the one- and two-layer graphs at once, on two threads (each
  // a pure function of its graph: the same figures as 1, in less time).
  int threads = 1;
};

// The batch whose search a batch's placement is taken from under placement reuse: every chunk's
// or prompt's new tokens (beyond one) and every context (beyond none) rounded down to a power of
// two (a decode stays a decode, a whole prompt a whole prompt: the same graph structure).
// Powers of four measured worse: 17.6 % on the mean TTFT of the case below, for 12.5 s.
frontend::Batch representative_batch(const frontend::Batch& batch);
// A length's representative: the largest power of two not above it (0 stays 0).
int64_t representative_length(int64_t tokens);

class PipelineIterationCost : public IterationCost {
 public:
  // `policy` must outlive the cost (the registry's policies live for the whole process).
  // lightcode::Error for a null system, a negative bucket or a joint budget < 1.
  PipelineIterationCost(frontend::ModelConfig model, std::shared_ptr<const hw::System> system,
                        opt::Objective objective, const sched::SchedulingPolicy& policy,
                        PipelineCostOptions options = {});

  // lightcode::Error for an invalid batch (frontend::validate_batch) or whatever the pipeline
  // throws for it (an op no unit supports, a graph over the node limit, ...).
  IterationEstimate estimate(const frontend::Batch& batch) const override;

  // The batch whose graph is built for `batch`: contexts rounded up to the bucket.
  frontend::Batch bucketed(const frontend::Batch& batch) const;

  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }  // batches priced
  int64_t graphs() const { return graphs_; }  // graphs built, placed and scheduled
  // Extrapolated batches whose second layer took less time or energy than none (clamped at zero).
  int64_t clamped() const { return clamped_; }

 private:
  using Key = std::vector<std::pair<int64_t, int64_t>>;
  IterationEstimate run_pipeline(const frontend::Batch& batch) const;
  IterationEstimate run_graph(const frontend::ModelConfig& model, const frontend::Batch& batch) const;
  ir::Graph build(const frontend::ModelConfig& model, const frontend::Batch& batch) const;  // counted in graphs()
  // The group's dynamic energy from the simulated device's (PipelineCostOptions::tensor_parallel).
  double group_dynamic_pj(const sched::ReportedCost& cost, const opt::TaskGraph& tasks) const;

  frontend::ModelConfig model_;
  std::shared_ptr<const hw::System> system_;
  opt::Objective objective_;
  const sched::SchedulingPolicy* policy_;
  PipelineCostOptions options_;
  mutable std::map<Key, IterationEstimate> cache_;
  mutable joint::PlacementReuse reuse_;
  mutable int64_t hits_ = 0, misses_ = 0, clamped_ = 0;
  mutable std::atomic<int64_t> graphs_{0};  // counted by both pricing threads (options.threads)
};

}  // namespace lightcode::serve
