// Placement reuse (sim/joint/placement_reuse.hpp): a representative's placement carried over to
// graphs that differ only in sizes equals a fresh search where it must (the representative's own
// sizes, and sizes that do not move the answer), is exactly what the pipeline gives for that
// placement, re-splits a split product for the new sizes, and the graph is searched itself when
// list scheduling shows the sizes have moved the answer or its structure differs.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/split_product.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/reported_cost.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

hw::System reuse_system(const std::string& name) {
  return hw::System::load(test::source_dir() + "/configs/systems/" + name, hw::profile_named("default"));
}

const sched::SchedulingPolicy& list_policy() { return sched::default_policies().at("list"); }

// A batch of `decodes` one-token sequences at `context`, of `model` cut to two decoder layers.
std::unique_ptr<const ir::Graph> decode_graph(const std::string& model_name, int64_t decodes, int64_t context,
                                              const hw::System& system) {
  frontend::ModelConfig model = frontend::builtin_model(model_name);
  model.num_hidden_layers = 2;
  frontend::Batch b;
  b.sequences.assign(static_cast<size_t>(decodes), frontend::SequenceSlot{1, context});
  ir::Graph g = frontend::build_iteration(model, b, frontend::Logits::last);
  g.apply_input_rule(system.profile().input_rule());
  return std::make_unique<const ir::Graph>(std::move(g));
}

// `reuse.place` of a decode batch with the batch at `rep_context` as its representative.
joint::Answer place_decodes(joint::PlacementReuse& reuse, const std::string& model, int64_t decodes, int64_t context,
                            int64_t rep_context, const hw::System& system) {
  return reuse.place(
      decode_graph(model, decodes, context, system), {decodes, rep_context},
      [&] { return decode_graph(model, decodes, rep_context, system); }, system, opt::Objective::time, list_policy());
}

}  // namespace

TEST_CASE("placement reuse: the representative's own sizes give the fresh answer, and a reused answer is the pipeline's") {
  const hw::System system = reuse_system("h100_sxm.yaml");
  joint::PlacementReuse reuse;
  // The representative's own sizes: its search's answer, to the picosecond and the picojoule.
  const joint::Answer first = place_decodes(reuse, "gpt2", 4, 100, 100, system);
  const joint::Answer searched =
      joint::place_with_splits(decode_graph("gpt2", 4, 100, system), system, opt::Objective::time, list_policy());
  CHECK(reuse.searches() == 1);
  CHECK(reuse.reuses() == 1);
  CHECK(first.result.origin == "reused:" + searched.result.origin);
  CHECK(first.result.placement.choice == searched.result.placement.choice);
  CHECK(first.result.cost.makespan == searched.result.cost.makespan);
  CHECK(first.result.cost.energy_pj == searched.result.cost.energy_pj);

  // Other sizes of the same class: the class's placement, timed as the pipeline times it.
  const joint::Answer later = place_decodes(reuse, "gpt2", 4, 120, 100, system);
  CHECK(reuse.representatives() == 1);
  REQUIRE(reuse.searches() == 1);  // the guard passed: reused
  {
    CHECK(later.result.placement.choice == first.result.placement.choice);
    const opt::TaskGraph tasks = opt::expand(*later.stacks, later.part, later.result.placement);
    const sched::Schedule s = sched::schedule(tasks, sched::unit_instances(system), list_policy());
    const sched::ReportedCost cost = sched::reported_cost(tasks, s, system);
    CHECK(later.result.cost.makespan == cost.makespan);
    CHECK(later.result.cost.energy_pj == cost.energy_pj);
  }
  // Where a fresh search at those sizes places alike, the answers are equal to the picosecond.
  const joint::Answer fresh = joint::place_with_splits(decode_graph("gpt2", 4, 120, system), system,
                                                       opt::Objective::time, list_policy());
  if (fresh.result.placement.choice == later.result.placement.choice) {
    CHECK(fresh.result.cost.makespan == later.result.cost.makespan);
    CHECK(fresh.result.cost.energy_pj == later.result.cost.energy_pj);
  }
  CHECK(later.result.cost.makespan.seconds() <= fresh.result.cost.makespan.seconds() * (1.0 + 0.02));

  // A graph of another structure than its representative's is searched itself.
  const int64_t before = reuse.searches();
  (void)reuse.place(
      decode_graph("gpt2", 5, 100, system), {4, 100}, [&] { return decode_graph("gpt2", 4, 100, system); }, system,
      opt::Objective::time, list_policy());
  CHECK(reuse.searches() == before + 1);
  CHECK(reuse.representatives() == 1);
}

TEST_CASE("placement reuse: sizes that move the answer are searched themselves") {
  // llama-2-7b decodes of 8 sequences on an H100: at 8 tokens of context the search puts work
  // on the host CPU beside the GPU; at 512 that placement takes over three times as long as a
  // fresh one (docs/PERFORMANCE.md, "Placement reuse"), and list scheduling from it shows so.
  const hw::System system = reuse_system("h100_sxm.yaml");
  joint::PlacementReuse reuse;
  const joint::Answer at512 = place_decodes(reuse, "llama-2-7b", 8, 512, 8, system);
  CHECK(reuse.searches() == 2);  // the representative and the graph itself
  CHECK(reuse.reuses() == 0);
  CHECK(at512.result.origin.rfind("reused:", 0) == std::string::npos);
  const joint::Answer fresh = joint::place_with_splits(decode_graph("llama-2-7b", 8, 512, system), system,
                                                       opt::Objective::time, list_policy());
  CHECK(at512.result.cost.makespan == fresh.result.cost.makespan);
  // Answers depend on the graph and its representative only: asked again, the same answer.
  const joint::Answer again = place_decodes(reuse, "llama-2-7b", 8, 512, 8, system);
  CHECK(reuse.searches() == 3);
  CHECK(again.result.cost.makespan == at512.result.cost.makespan);
}

TEST_CASE("placement reuse: a split product is split again, balanced for the new sizes") {
  const hw::System system = reuse_system("gpu_dota_b.yaml");
  joint::PlacementReuse reuse;
  const auto place_big = [&](int64_t rows) {
    return reuse.place(test::big_product_graph(rows), {32768}, [] { return test::big_product_graph(32768); }, system, opt::Objective::time,
                       list_policy());
  };
  const joint::Answer first = place_big(32768);
  REQUIRE(first.split.has_value());
  const joint::Answer smaller = place_big(24576);
  const joint::Answer fresh = joint::place_with_splits(test::big_product_graph(24576), system, opt::Objective::time, list_policy());
  CHECK(reuse.reuses() == 2);  // both sizes: the representative's own, then the smaller
  REQUIRE(smaller.split.has_value());
  REQUIRE(fresh.split.has_value());
  CHECK(smaller.split->product == "big");
  CHECK(smaller.split->plan.rows == 24576);
  CHECK(smaller.split->plan.rows_a == fresh.split->plan.rows_a);
  CHECK(smaller.split->plan.unit_a == first.split->plan.unit_a);
  CHECK(smaller.result.cost.makespan == fresh.result.cost.makespan);
  CHECK(smaller.graph->size() == fresh.graph->size());
}
