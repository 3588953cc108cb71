#include "sim/serve/pipeline_cost.hpp"

#include <algorithm>
#include <exception>
#include <future>
#include <optional>
#include <string>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/joint/split_search.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/reported_cost.hpp"

namespace lightcode::serve {

namespace {
constexpr std::pair<LayerPricing, std::string_view> kLayerPricings[] = {
    {LayerPricing::all, "all"}, {LayerPricing::extrapolated, "extrapolated"}, {LayerPricing::automatic, "auto"}};
constexpr std::pair<PlacementReuseMode, std::string_view> kPlacementReuses[] = {
    {PlacementReuseMode::none, "none"}, {PlacementReuseMode::by_class, "by_class"}};

template <class E, size_t N>
std::string_view name_in(const std::pair<E, std::string_view> (&table)[N], E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <class E, size_t N>
E parse_in(const std::pair<E, std::string_view> (&table)[N], std::string_view name, const char* what) {
  std::string known;
  for (const auto& [value, text] : table) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(text);
  }
  throw Error("unknown " + std::string(what) + " '" + std::string(name) + "' (known: " + known + ")");
}
}  // namespace

std::string_view layer_pricing_name(LayerPricing p) { return name_in(kLayerPricings, p); }
LayerPricing parse_layer_pricing(std::string_view name) { return parse_in(kLayerPricings, name, "layer pricing"); }
std::string_view placement_reuse_name(PlacementReuseMode r) { return name_in(kPlacementReuses, r); }
PlacementReuseMode parse_placement_reuse(std::string_view name) {
  return parse_in(kPlacementReuses, name, "placement reuse");
}

bool builds_every_layer(LayerPricing pricing, int64_t layers) {
  if (layers <= 2) return true;  // one and two layers would be the model itself
  switch (pricing) {
    case LayerPricing::all: return true;
    case LayerPricing::extrapolated: return false;
    case LayerPricing::automatic: return layers <= kAllLayersUpTo;
  }
  return true;
}

PipelineIterationCost::PipelineIterationCost(frontend::ModelConfig model,
                                             std::shared_ptr<const hw::System> system,
                                             opt::Objective objective,
                                             const sched::SchedulingPolicy& policy,
                                             PipelineCostOptions options)
    : model_(std::move(model)),
      system_(std::move(system)),
      objective_(objective),
      policy_(&policy),
      options_(options) {
  if (!system_) throw Error("pipeline iteration cost: no system given");
  if (options_.context_bucket < 0) {
    throw Error("pipeline iteration cost: context_bucket must be >= 0 tokens, got " +
                std::to_string(options_.context_bucket));
  }
  if (options_.joint_evaluations < 1) {
    throw Error("pipeline iteration cost: joint_evaluations must be >= 1, got " +
                std::to_string(options_.joint_evaluations));
  }
}

frontend::Batch PipelineIterationCost::bucketed(const frontend::Batch& batch) const {
  frontend::Batch out = batch;
  const int64_t b = options_.context_bucket;
  if (b == 0) return out;
  for (frontend::SequenceSlot& s : out.sequences) {
    if (s.context <= 0) continue;  // a whole prompt stays a whole prompt
    const int64_t rounded = (s.context + b - 1) / b * b;
    // Rounding must not turn a valid batch into one past the sequence limit.
    const int64_t most = limits::kSequenceLength.value - s.new_tokens;
    s.context = std::max(s.context, std::min(rounded, most));
  }
  return out;
}

IterationEstimate PipelineIterationCost::estimate(const frontend::Batch& batch) const {
  frontend::validate_batch(batch);
  const frontend::Batch built = bucketed(batch);
  Key key;
  key.reserve(built.sequences.size());
  for (const frontend::SequenceSlot& s : built.sequences) key.emplace_back(s.new_tokens, s.context);
  if (const auto it = cache_.find(key); it != cache_.end()) {
    ++hits_;
    return it->second;
  }
  const IterationEstimate e = run_pipeline(built);
  ++misses_;
  cache_.emplace(std::move(key), e);
  return e;
}

IterationEstimate PipelineIterationCost::run_pipeline(const frontend::Batch& batch) const {
  const int64_t layers = model_.num_hidden_layers;
  if (builds_every_layer(options_.layers, layers)) return run_graph(model_, batch);
  frontend::ModelConfig shallow_one = model_, shallow_two = model_;
  shallow_one.num_hidden_layers = 1;
  shallow_two.num_hidden_layers = 2;
  std::optional<IterationEstimate> priced_one;
  std::future<IterationEstimate> pricing_one;
  if (options_.threads > 1) {
    pricing_one = std::async(std::launch::async, [&] { return run_graph(shallow_one, batch); });
  } else {
    priced_one = run_graph(shallow_one, batch);
  }
  std::optional<IterationEstimate> priced_two;
  std::exception_ptr two_failed;
  try {
    priced_two = run_graph(shallow_two, batch);
  } catch (...) {
    two_failed = std::current_exception();
  }
  // One's error first, as when they ran one after the other.
  const IterationEstimate one = priced_one ? *priced_one : pricing_one.get();
  if (two_failed) std::rethrow_exception(two_failed);
  const IterationEstimate two = *priced_two;
  // cost(L) = cost(1) + (L - 1) x (cost(2) - cost(1)); a layer never costs less than nothing.
  const Time rise = two.time - one.time;
  const double rise_pj = two.energy.picojoules() - one.energy.picojoules();
  if (rise < Time::zero() || rise_pj < 0.0) ++clamped_;
  const Time per_layer = std::max(rise, Time::zero());
  const double per_layer_pj = std::max(rise_pj, 0.0);
  const Time more = Time::ps(checked_mul(per_layer.count_ps(), layers - 1, [&] {
    return "the time of batch " + frontend::describe_batch(batch) + " over " + std::to_string(layers) + " layers";
  }));
  return IterationEstimate{one.time.plus(more, "an iteration's time"),
                           Energy::pj(one.energy.picojoules() + static_cast<double>(layers - 1) * per_layer_pj)};
}

int64_t representative_length(int64_t tokens) {
  if (tokens <= 0) return tokens;
  int64_t p = 1;
  while (p <= tokens / 2) p *= 2;
  return p;
}

frontend::Batch representative_batch(const frontend::Batch& batch) {
  frontend::Batch out = batch;
  for (frontend::SequenceSlot& s : out.sequences) {
    if (s.new_tokens > 1) s.new_tokens = std::max<int64_t>(2, representative_length(s.new_tokens));
    s.context = representative_length(s.context);
  }
  return out;
}

ir::Graph PipelineIterationCost::build(const frontend::ModelConfig& model, const frontend::Batch& batch) const {
  ir::Graph graph = frontend::build_iteration(model, batch, frontend::Logits::last, options_.attention,
                                              frontend::Parallelism{options_.tensor_parallel, 0, 1, 0});
  ++graphs_;
  const ir::InputTypeRule rule = system_->profile().input_rule();
  if (graph.input_rule() != rule) graph.apply_input_rule(rule);
  return graph;
}

double PipelineIterationCost::group_dynamic_pj(const sched::ReportedCost& cost, const opt::TaskGraph& tasks) const {
  if (options_.tensor_parallel == 1) return cost.dynamic_pj;
  return check_energy(cost.dynamic_pj + static_cast<double>(options_.tensor_parallel - 1) *
                                            sched::device_dynamic_pj(tasks, *system_),
                      "an iteration's energy over its devices");
}

IterationEstimate PipelineIterationCost::run_graph(const frontend::ModelConfig& model,
                                                   const frontend::Batch& batch) const {
  const hw::System& system = *system_;
  ir::Graph graph = build(model, batch);
  if (options_.joint_search) {
    // What a point of the same graph runs (sweep::run_point): the joint search, splitting a
    // dominant product across units when that pays; or its representative's answer.
    joint::JointOptions search;
    search.evaluations = options_.joint_evaluations;
    auto built = std::make_unique<const ir::Graph>(std::move(graph));
    joint::Answer a;
    if (options_.reuse == PlacementReuseMode::by_class) {
      const frontend::Batch rep = representative_batch(batch);
      std::vector<int64_t> key{model.num_hidden_layers};
      for (const frontend::SequenceSlot& s : rep.sequences) {
        key.push_back(s.new_tokens);
        key.push_back(s.context);
      }
      a = reuse_.place(
          std::move(built), key, [&] { return std::make_unique<const ir::Graph>(build(model, rep)); }, system,
          objective_, *policy_, search);
    } else {
      a = joint::place_with_splits(std::move(built), system, objective_, *policy_, search);
    }
    return IterationEstimate{a.result.cost.makespan, Energy::pj(group_dynamic_pj(a.result.cost, a.result.tasks))};
  }
  const opt::StackedGraph stacks(graph, system);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::Placement placement = opt::place(stacks, part, objective_);
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  const sched::Schedule timeline = sched::schedule(tasks, sched::unit_instances(system), *policy_);
  const sched::ReportedCost cost = sched::reported_cost(tasks, timeline, system);
  return IterationEstimate{cost.makespan, Energy::pj(group_dynamic_pj(cost, tasks))};
}

}  // namespace lightcode::serve
