// The joint placement search (sim/joint): exact against brute force on random small DAGs for
// every objective, lower bounds never above the answers, the objectives agreeing with what
// the report charges, and the search never worse than the sum selection it starts from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/system.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/joint/split_search.hpp"
#include "sim/sweep/run_point.hpp"
#include "sim/opt/bounded_selection.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/reported_cost.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

// A random DAG of `ops` ops on [rows, width] float16 activations: dense (with its own weight),
// add and relu, each reading earlier values picked uniformly, so long skip edges are common.
ir::Graph random_dag(std::mt19937& rng, int ops) {
  const int64_t rows = std::vector<int64_t>{16, 64, 256}[rng() % 3];
  const int64_t width = std::vector<int64_t>{256, 1024}[rng() % 2];
  ir::Graph g;
  auto memory = [&](const std::string& name, ir::Shape s) { return g.add(test::memory(name, s)); };
  std::vector<ir::NodeId> values{memory("x", ir::Shape{rows, width})};
  auto pick = [&] { return values[rng() % values.size()]; };
  for (int i = 0; i < ops; ++i) {
    const int kind = static_cast<int>(rng() % 3);
    ir::Node n;
    n.name = "op" + std::to_string(i);
    n.outputs = {ir::TensorType{ir::Shape{rows, width}, ir::DType::float16}};
    if (kind == 0) {
      const ir::NodeId w = memory("w" + std::to_string(i), ir::Shape{width, width});
      n.kind = ir::OpKind::dense;
      n.inputs = {{pick(), 0}, {w, 0}};
    } else if (kind == 1) {
      n.kind = ir::OpKind::add;
      n.inputs = {{pick(), 0}, {pick(), 0}};
    } else {
      n.kind = ir::OpKind::relu;
      n.inputs = {{pick(), 0}};
    }
    n.kind_name = std::string(ir::op_kind_name(n.kind));
    values.push_back(g.add(std::move(n)));
  }
  g.add_head({values.back(), 0});
  g.validate();
  return g;
}

// Every group chosen by one member chosen, on one unit, by all (written apart from the search's).
bool covers_exactly(const opt::StackedGraph& stacks, const std::vector<int32_t>& choice) {
  for (size_t g = 0; g < stacks.groups().size(); ++g) {
    const std::vector<ir::NodeId>& members = stacks.group(static_cast<int32_t>(g)).kernel.members;
    int chosen = 0;
    hw::UnitType unit = -1;
    bool one_unit = true;
    for (ir::NodeId m : members) {
      const opt::Candidate& c = stacks.candidate(m, choice[static_cast<size_t>(m)]);
      if (c.group != static_cast<int32_t>(g)) continue;
      ++chosen;
      one_unit = one_unit && (unit < 0 || unit == c.unit);
      unit = c.unit;
    }
    if (chosen != 0 && (chosen != static_cast<int>(members.size()) || !one_unit)) return false;
  }
  return true;
}

struct Optimum {
  double score[3] = {std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::infinity()};
  int64_t placements = 0;
};

Optimum brute_force(const opt::StackedGraph& stacks, const opt::Partition& part) {
  const sched::SchedulingPolicy& list = sched::default_policies().at("list");
  const std::vector<int> instances = sched::unit_instances(stacks.system());
  Optimum best;
  std::vector<int32_t> choice(stacks.size(), 0);
  for (;;) {
    if (covers_exactly(stacks, choice)) {
      opt::Placement p;
      p.choice = choice;
      const opt::TaskGraph tasks = opt::expand(stacks, part, p);
      const sched::Schedule s = sched::schedule(tasks, instances, list);
      const sched::ReportedCost c = sched::reported_cost(tasks, s, stacks.system());
      for (const opt::ObjectiveInfo& o : opt::objectives()) {
        double& b = best.score[static_cast<size_t>(o.id)];
        b = std::min(b, o.score(c.makespan, c.energy_pj));
      }
      ++best.placements;
    }
    size_t k = 0;
    while (k < choice.size() && ++choice[k] == stacks.candidate_count(static_cast<ir::NodeId>(k)))
      choice[k++] = 0;
    if (k == choice.size()) return best;
  }
}

int64_t placements(const opt::StackedGraph& stacks) {
  int64_t n = 1;
  for (size_t i = 0; i < stacks.size() && n <= joint::kExhaustiveLimit; ++i)
    n *= stacks.candidate_count(static_cast<ir::NodeId>(i));
  return n;
}

hw::System load_system(const std::string& file) {
  return hw::System::load(test::source_dir() + "/configs/systems/" + file,
                          hw::profile_named("default"));
}

}  // namespace

TEST_CASE(
    "joint placement equals brute force on 300 random small DAGs for time and energy and edp") {
  const hw::System systems[] = {load_system("cpu_phu.yaml"), load_system("gpu_phu.yaml"),
                                load_system("h100_sxm_phu.yaml")};
  const sched::SchedulingPolicy& list = sched::default_policies().at("list");
  std::mt19937 rng(20261203);
  int dags = 0, attempts = 0, with_groups = 0;
  int64_t total = 0;
  while (dags < 300) {
    REQUIRE(++attempts < 3000);
    const ir::Graph g = random_dag(rng, 2 + static_cast<int>(rng() % 11));  // 2 .. 12 ops
    const hw::System& system = systems[rng() % 3];
    const opt::StackedGraph stacks(g, system);
    // Problems the search enumerates, and small enough for the brute force to run 300 of
    // them quickly (under the sanitizers too).
    if (placements(stacks) > joint::kExhaustiveLimit / 4) continue;
    ++dags;
    with_groups += stacks.groups().empty() ? 0 : 1;
    const opt::Partition part = opt::partition_for(stacks);
    const Optimum best = brute_force(stacks, part);
    total += best.placements;
    for (const opt::ObjectiveInfo& o : opt::objectives()) {
      CAPTURE(dags);
      CAPTURE(std::string(o.name));
      const joint::JointResult r = joint::place_jointly(stacks, part, o.id, list);
      CHECK(r.exact);
      CHECK(r.score == best.score[static_cast<size_t>(o.id)]);
      CHECK(r.lower_bound <= r.score);
      CHECK(r.score == o.score(r.cost.makespan, r.cost.energy_pj));
    }
  }
  CHECK(with_groups > 30);  // fused groups (GPU epilogues) are part of the problems
  MESSAGE(dags << " DAGs (" << attempts << " drawn), " << total << " placements, " << with_groups
               << " with fused groups");
}

TEST_CASE("splitting an articulation product between the PHU and the GPU lowers the makespan at the balanced ratio") {
  // One large product alone (H100 + DOTA-B): the GPU runs it fastest, but the PHU beside it
  // can take some of its rows at the same time.
  const hw::System system = load_system("gpu_dota_b.yaml");
  std::unique_ptr<ir::Graph> graph = test::big_product_graph(32768);
  const sched::SchedulingPolicy& list = sched::default_policies().at("list");
  const opt::StackedGraph plain(*graph, system);
  const opt::Partition plain_part = opt::partition_for(plain);
  const joint::JointResult unsplit = joint::place_jointly(plain, plain_part, opt::Objective::time, list);

  const joint::Answer a = joint::place_with_splits(std::move(graph), system, opt::Objective::time, list);
  REQUIRE(a.split.has_value());
  CHECK(a.split->product == "big");
  CHECK(a.result.cost.makespan < unsplit.cost.makespan);
  const opt::SplitPlan& plan = a.split->plan;
  CHECK(system.model(plan.unit_a).capabilities().photonic);
  CHECK(system.unit(plan.unit_b).name == "gpu");
  // The closed-form balance of the two linear finish times, and the refined row count near it.
  const double closed = (plan.fixed_b + plan.slope_b * static_cast<double>(plan.rows) - plan.fixed_a) /
                        (plan.slope_a + plan.slope_b);
  CHECK(plan.closed_form_rows_a == doctest::Approx(closed));
  CHECK(std::abs(static_cast<double>(plan.rows_a) - closed) < 0.05 * closed);
  // The halves run where they were pinned, at the same time.
  const opt::SplitIds ids = opt::split_ids(2);
  const opt::Candidate& half_a = a.stacks->candidate(ids.rows_a, a.result.placement.choice[static_cast<size_t>(ids.rows_a)]);
  const opt::Candidate& half_b = a.stacks->candidate(ids.rows_b, a.result.placement.choice[static_cast<size_t>(ids.rows_b)]);
  CHECK(half_a.unit == plan.unit_a);
  CHECK(half_b.unit == plan.unit_b);
  MESSAGE("unsplit " << unsplit.cost.makespan.seconds() * 1e3 << " ms, split " << a.result.cost.makespan.seconds() * 1e3
                     << " ms: " << plan.rows_a << " of " << plan.rows << " rows on the PHU (closed form " << closed << ")");
}

TEST_CASE("a graph of many layers has no articulation product worth splitting: no split is tried") {
  const results::PointSummary s = sweep::run_point(test::analytical_point("gpt2", 150, "gpu_dota_b.yaml")).result.summary;
  CHECK(s.split.empty());
}

// The EDP seed's bounded selection (JointOptions::edp_seed): with the exact mode the search is
// what it was; with the bound, where the bounded seed is the exact seed the answer, its origin
// and the whole archive are the same, and the seed's certified gap is within the tolerance.
TEST_CASE("joint search: the bounded EDP seed against the exact one on gpt2 batches") {
  const hw::System system = hw::System::load(test::system_file("h100_sxm"), hw::profile_named("default"));
  const sched::SchedulingPolicy& policy = sched::default_policies().at(system.profile().default_scheduler());
  const frontend::ModelConfig gpt2 = frontend::builtin_model("gpt2");
  int same_seed = 0;
  for (int count : {1, 8, 32}) {
    frontend::Batch batch;
    for (int i = 0; i < count; ++i) batch.sequences.push_back({1, 512});
    batch.sequences.push_back({128, 0});
    const ir::Graph g = frontend::build_iteration(gpt2, batch, frontend::Logits::last);
    const opt::StackedGraph stacks(g, system);
    const opt::Partition part = opt::partition_for(stacks);
    const double static_w = hw::static_power_watts(system);
    const bool seeds_agree =
        opt::place(stacks, part, opt::Objective::edp, true, static_w, opt::kBoundedSelection).choice ==
        opt::place(stacks, part, opt::Objective::edp, true, static_w).choice;
    same_seed += seeds_agree ? 1 : 0;
    for (opt::Objective o : {opt::Objective::time, opt::Objective::edp}) {
      CAPTURE(count);
      joint::JointOptions exact_seed;
      exact_seed.edp_seed = opt::kExactSelection;
      const joint::JointResult e = joint::place_jointly(stacks, part, o, policy, exact_seed);
      const joint::JointResult b = joint::place_jointly(stacks, part, o, policy);
      CHECK(e.edp_seed_gap_bound == 0.0);
      CHECK(b.edp_seed_gap_bound <= opt::kBoundedSelection.tolerance);
      if (!seeds_agree) continue;
      CHECK(b.placement.choice == e.placement.choice);
      CHECK(b.score == e.score);
      CHECK(b.origin == e.origin);
      CHECK(b.front.size() == e.front.size());
      for (size_t i = 0; i < std::min(b.front.size(), e.front.size()); ++i) {
        CHECK(b.front[i].makespan == e.front[i].makespan);
        CHECK(b.front[i].energy_pj == e.front[i].energy_pj);
      }
    }
  }
  CHECK(same_seed > 0);
}
