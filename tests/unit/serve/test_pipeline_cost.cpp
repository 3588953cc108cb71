// PipelineIterationCost: gpt2 on the default profile's GPU system. A batch of one is the point
// pipeline's figure; batching shares the products; the cache answers repeats; context buckets
// collapse graphs at a measured error; a serving run builds few graphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/generator.hpp"
#include "sim/core/error.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/reported_cost.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/serve/simulator.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::serve;

namespace {

std::shared_ptr<const hw::System> gpu_system() {
  static const auto system = std::make_shared<const hw::System>(
      hw::System::load(test::system_file("gpu"), hw::profile_named("default")));
  return system;
}

const sched::SchedulingPolicy& list_policy() {
  return sched::default_policies().at("list");
}

PipelineIterationCost gpt2_cost(int64_t bucket = 0) {
  PipelineCostOptions options;
  options.context_bucket = bucket;
  return PipelineIterationCost(frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time,
                               list_policy(), options);
}

frontend::Batch batch(std::vector<frontend::SequenceSlot> slots) {
  return frontend::Batch{std::move(slots)};
}

frontend::Batch decodes(const std::vector<int64_t>& contexts) {
  frontend::Batch b;
  for (int64_t c : contexts) b.sequences.push_back({1, c});
  return b;
}

double relative(double estimate, double exact) {
  return std::abs(estimate - exact) / exact;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("a batch of one prefill costs what the point pipeline gives") {
  const hw::System& system = *gpu_system();
  ir::Graph graph = frontend::build_model(frontend::builtin_model("gpt2"), frontend::Stage::prefill,
                                          128, frontend::Logits::last);
  if (graph.input_rule() != system.profile().input_rule())
    graph.apply_input_rule(system.profile().input_rule());
  const opt::StackedGraph stacks(graph, system);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  const sched::Schedule timeline =
      sched::schedule(tasks, sched::unit_instances(system), list_policy());
  const sched::ReportedCost point = sched::reported_cost(tasks, timeline, system);

  const PipelineIterationCost cost = gpt2_cost();
  const auto t0 = std::chrono::steady_clock::now();
  const IterationEstimate e = cost.estimate(batch({{128, 0}}));
  MESSAGE("gpt2 prefill 128 on gpu: "
          << e.time.seconds() * 1e3 << " ms, " << e.energy.picojoules() * 1e-9
          << " mJ dynamic; one pipeline run took " << seconds_since(t0) << " s");
  CHECK(e.time == point.makespan);
  CHECK(e.energy.picojoules() == point.dynamic_pj);
}

TEST_CASE("a decode batch of four costs less than four separate decode steps") {
  const PipelineIterationCost cost = gpt2_cost();
  const std::vector<int64_t> contexts{100, 250, 400, 700};
  const IterationEstimate together = cost.estimate(decodes(contexts));
  Time apart;
  double apart_pj = 0.0;
  for (int64_t c : contexts) {
    const IterationEstimate one = cost.estimate(decodes({c}));
    apart = apart + one.time;
    apart_pj += one.energy.picojoules();
  }
  MESSAGE("4 decodes batched: " << together.time.seconds() * 1e6
                                << " us, apart: " << apart.seconds() * 1e6 << " us");
  CHECK(together.time < apart);
  CHECK(together.energy.picojoules() < apart_pj);
}

TEST_CASE("the same batch again is a cache hit with the same estimate") {
  const PipelineIterationCost cost = gpt2_cost();
  const frontend::Batch b = batch({{1, 300}, {32, 64}});
  const IterationEstimate first = cost.estimate(b);
  CHECK(cost.misses() == 1);
  CHECK(cost.hits() == 0);
  const IterationEstimate second = cost.estimate(b);
  CHECK(cost.misses() == 1);
  CHECK(cost.hits() == 1);
  CHECK(second.time == first.time);
  CHECK(second.energy.picojoules() == first.energy.picojoules());
  // Order is part of the key: the swapped batch is built on its own.
  (void)cost.estimate(batch({{32, 64}, {1, 300}}));
  CHECK(cost.misses() == 2);
}

TEST_CASE("the joint search is never slower than the sum selection") {
  PipelineCostOptions joint;
  joint.joint_search = true;
  joint.joint_evaluations = 16;
  const PipelineIterationCost searched(frontend::builtin_model("gpt2"), gpu_system(),
                                       opt::Objective::time, list_policy(), joint);
  const PipelineIterationCost summed = gpt2_cost();
  for (const frontend::Batch& b : {batch({{128, 0}}), decodes({100, 250, 400, 700})}) {
    const IterationEstimate j = searched.estimate(b);
    const IterationEstimate s = summed.estimate(b);
    MESSAGE(frontend::describe_batch(b) << ": joint " << j.time.seconds() * 1e6 << " us, sum "
                                        << s.time.seconds() * 1e6 << " us");
    CHECK(j.time <= s.time);  // the sum selection for time is one of the search's seeds
  }
}

TEST_CASE("bad options and batches are errors") {
  PipelineCostOptions negative;
  negative.context_bucket = -1;
  const frontend::ModelConfig gpt2 = frontend::builtin_model("gpt2");
  CHECK_THROWS_AS(
      PipelineIterationCost(gpt2, gpu_system(), opt::Objective::time, list_policy(), negative),
      Error);
  CHECK_THROWS_AS(PipelineIterationCost(gpt2, nullptr, opt::Objective::time, list_policy()), Error);
  const PipelineIterationCost cost = gpt2_cost();
  CHECK_THROWS_AS((void)cost.estimate(frontend::Batch{}), Error);
  CHECK(cost.misses() == 0);
}

TEST_CASE("context buckets share one graph per bucket at a small measured error") {
  const PipelineIterationCost bucketed = gpt2_cost(64);
  const PipelineIterationCost exact = gpt2_cost();
  const IterationEstimate at_64 = bucketed.estimate(decodes({64}));
  for (int64_t c = 1; c <= 64; ++c) {
    const IterationEstimate e = bucketed.estimate(decodes({c}));
    CHECK(e.time == at_64.time);
    CHECK(e.energy.picojoules() == at_64.energy.picojoules());
  }
  CHECK(bucketed.misses() == 1);
  CHECK(bucketed.bucketed(batch({{128, 0}, {1, 65}})).sequences[0].context == 0);
  CHECK(bucketed.bucketed(batch({{128, 0}, {1, 65}})).sequences[1].context == 128);

  // Time moves in steps (the GPU's attention tiles), so the error is largest where the bucket
  // is large against the context: a context of 1 built as 64. Past the first bucket it is small.
  const std::vector<frontend::Batch> first_bucket{decodes({1}), decodes({1, 65, 129, 257}),
                                                  batch({{16, 1}, {1, 200}})};
  const std::vector<frontend::Batch> later{decodes({65}),     decodes({129}),
                                           decodes({300}),    decodes({513}),
                                           decodes({700}),    decodes({65, 300, 450, 700}),
                                           batch({{64, 65}}), batch({{100, 0}, {1, 333}})};
  const auto worst = [&](const std::vector<frontend::Batch>& probes) {
    std::pair<double, double> w{0.0, 0.0};
    for (const frontend::Batch& b : probes) {
      const IterationEstimate e = bucketed.estimate(b);
      const IterationEstimate x = exact.estimate(b);
      CHECK(e.time >= x.time);  // rounding up only adds work
      w.first = std::max(w.first, relative(static_cast<double>(e.time.count_ps()),
                                           static_cast<double>(x.time.count_ps())));
      w.second = std::max(w.second, relative(e.energy.picojoules(), x.energy.picojoules()));
    }
    return w;
  };
  const auto [small_time, small_energy] = worst(first_bucket);
  const auto [later_time, later_energy] = worst(later);
  MESSAGE("bucket 64 on gpt2/gpu, worst relative error with a context in the first bucket: "
          << small_time * 100 << " % time, " << small_energy * 100
          << " % dynamic energy; contexts past it: " << later_time * 100 << " % time, "
          << later_energy * 100 << " % dynamic energy");
  CHECK(small_time < 0.20);
  CHECK(small_energy < 0.03);
  CHECK(later_time < 0.07);
  CHECK(later_energy < 0.03);
}

TEST_CASE("a serving run on the pipeline cost builds few graphs") {
  // 20 requests, Poisson at 200 per second, prompts of 16..128 tokens, outputs of 32..96 (seed 3):
  // small enough for the sanitizer stage, which builds every graph again.
  GeneratorSpec g;
  g.rate_per_s = 200.0;
  g.prompt = std::make_shared<UniformLengths>(16, 128);
  g.output = std::make_shared<UniformLengths>(32, 96);
  g.count = 20;
  g.seed = 3;
  const std::vector<Request> requests = generate_requests(g);

  PipelineCostOptions options;
  options.context_bucket = 64;
  const auto cost = std::make_shared<PipelineIterationCost>(
      frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time, list_policy(), options);
  ReplicaSpec replica;
  replica.kv_capacity_tokens = 16384;
  replica.batching = std::make_shared<ContinuousBatching>(8, 256);
  replica.cost = cost;
  ServeSpec spec;
  spec.replicas.push_back(replica);

  const auto t0 = std::chrono::steady_clock::now();
  const ServeResult r = simulate_serving(requests, spec);
  const double wall = seconds_since(t0);

  std::vector<int64_t> produced(requests.size(), 0);
  for (const IterationRecord& it : r.iterations) {
    for (const SlotRecord& s : it.slots) produced[s.request] += s.produced_token ? 1 : 0;
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    CHECK(produced[i] == requests[i].output_tokens);
    CHECK(r.requests[i].finish < Time::max());
  }
  const auto iterations = static_cast<int64_t>(r.iterations.size());
  MESSAGE("serving " << requests.size() << " requests: " << iterations << " iterations, " << cost->misses()
                                  << " graphs built, " << cost->hits() << " cache hits, " << wall
                                  << " s wall, run time " << r.run_time.seconds() << " s");
  CHECK(cost->hits() + cost->misses() == iterations);
  CHECK(cost->misses() * 3 < iterations);

  // The same run with exact contexts, for comparison: nearly every decode batch is new.
  auto exact_cost = std::make_shared<PipelineIterationCost>(
      frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time, list_policy());
  spec.replicas[0].cost = exact_cost;
  const ServeResult x = simulate_serving(requests, spec);
  MESSAGE("with exact contexts: " << x.iterations.size() << " iterations, " << exact_cost->misses()
                                  << " graphs built; run time " << x.run_time.seconds() << " s");
  CHECK(cost->misses() < exact_cost->misses());
}

TEST_CASE("iteration layers: auto builds gpt2 whole and extrapolates llama-2-7b, names parse both ways") {
  CHECK(builds_every_layer(LayerPricing::automatic, kAllLayersUpTo));
  CHECK_FALSE(builds_every_layer(LayerPricing::automatic, kAllLayersUpTo + 1));
  CHECK(builds_every_layer(LayerPricing::extrapolated, 2));  // one and two layers are the model
  CHECK_FALSE(builds_every_layer(LayerPricing::extrapolated, 3));
  CHECK(builds_every_layer(LayerPricing::all, 80));
  for (LayerPricing p : {LayerPricing::all, LayerPricing::extrapolated, LayerPricing::automatic}) {
    CHECK(parse_layer_pricing(layer_pricing_name(p)) == p);
  }
  CHECK_THROWS_WITH_AS(parse_layer_pricing("some"), doctest::Contains("known: all, extrapolated, auto"), Error);
  PipelineCostOptions automatic;
  automatic.layers = LayerPricing::automatic;
  const frontend::Batch one = decodes({64});
  const PipelineIterationCost gpt2(frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time, list_policy(),
                                   automatic);
  (void)gpt2.estimate(one);
  CHECK(gpt2.graphs() == 1);  // every layer, as `all`: the GPT-2 studies keep their figures
  const PipelineIterationCost whole = gpt2_cost();
  CHECK(gpt2.estimate(one).time == whole.estimate(one).time);
  const PipelineIterationCost llama(frontend::builtin_model("llama-2-7b"), gpu_system(), opt::Objective::time,
                                    list_policy(), automatic);
  (void)llama.estimate(one);
  CHECK(llama.graphs() == 2);  // one layer and two
}

TEST_CASE("placement reuse by class: representatives, names, and a batch at its representative's sizes as searched") {
  CHECK(representative_length(0) == 0);
  CHECK(representative_length(1) == 1);
  CHECK(representative_length(3) == 2);
  CHECK(representative_length(1024) == 1024);
  CHECK(representative_length(1500) == 1024);
  const frontend::Batch rep = representative_batch(batch({{1, 300}, {700, 0}, {3, 9}}));
  CHECK(rep.sequences[0].new_tokens == 1);  // a decode stays a decode
  CHECK(rep.sequences[0].context == 256);
  CHECK(rep.sequences[1].new_tokens == 512);
  CHECK(rep.sequences[1].context == 0);  // a whole prompt stays a whole prompt
  CHECK(rep.sequences[2].new_tokens == 2);
  CHECK(rep.sequences[2].context == 8);
  for (PlacementReuseMode m : {PlacementReuseMode::none, PlacementReuseMode::by_class}) {
    CHECK(parse_placement_reuse(placement_reuse_name(m)) == m);
  }
  CHECK_THROWS_WITH_AS(parse_placement_reuse("auto"), doctest::Contains("known: none, by_class"), Error);

  // The joint search (as a serving point runs it) with and without reuse: a batch whose sizes
  // are its representative's is priced as searched; others take the representative's placement.
  PipelineCostOptions searched;
  searched.joint_search = true;
  PipelineCostOptions reused = searched;
  reused.reuse = PlacementReuseMode::by_class;
  const PipelineIterationCost every(frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time,
                                    list_policy(), searched);
  const PipelineIterationCost by_class(frontend::builtin_model("gpt2"), gpu_system(), opt::Objective::time,
                                       list_policy(), reused);
  for (const frontend::Batch& b : {decodes({64, 64, 128}), batch({{1, 256}, {64, 0}})}) {
    CHECK(by_class.estimate(b).time == every.estimate(b).time);
    CHECK(by_class.estimate(b).energy.picojoules() == doctest::Approx(every.estimate(b).energy.picojoules()));
  }
  const frontend::Batch other = decodes({80, 90, 150});
  CHECK(relative(by_class.estimate(other).time.seconds(), every.estimate(other).time.seconds()) < 0.05);
}

TEST_CASE("layers extrapolated on two threads: the same estimates and graph count as on one") {
  // The one- and two-layer graphs priced at once; each is a pure function of its graph (with
  // and without placement reuse, whose representatives the two threads share).
  const auto dota_b = std::make_shared<const hw::System>(
      hw::System::load(test::system_file("gpu_dota_b"), hw::profile_named("default")));
  for (PlacementReuseMode reuse : {PlacementReuseMode::none, PlacementReuseMode::by_class}) {
    CAPTURE(placement_reuse_name(reuse));
    PipelineCostOptions one_thread;
    one_thread.joint_search = true;
    one_thread.joint_evaluations = 8;
    one_thread.layers = LayerPricing::extrapolated;
    one_thread.reuse = reuse;
    PipelineCostOptions two_threads = one_thread;
    two_threads.threads = 2;
    const frontend::ModelConfig model = frontend::builtin_model("gpt2");
    const PipelineIterationCost a(model, dota_b, opt::Objective::energy, list_policy(), one_thread);
    const PipelineIterationCost b(model, dota_b, opt::Objective::energy, list_policy(), two_threads);
    for (const frontend::Batch& x : {decodes({64}), decodes({100, 300, 700}), batch({{1, 40}, {90, 0}}),
                                     batch({{200, 0}})}) {
      const IterationEstimate ea = a.estimate(x), eb = b.estimate(x);
      CHECK(eb.time == ea.time);
      CHECK(eb.energy.picojoules() == ea.energy.picojoules());
    }
    CHECK(b.graphs() == a.graphs());
  }
}
