// The bounded selection (sim/opt/bounded_selection.hpp) against the exact one: identical where
// no front was thinned, within the stated tolerance where one was, its certified gap never
// below the true one; the exact mode reachable. On random DAGs (those of test_selection.cpp,
// and wide ones whose fronts the bound does hit) and on GPT-2 and Llama-2-7B batch graphs.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/opt/bounded_selection.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/random_selection.hpp"

using namespace lightcode;
using opt::Objective;

namespace {

double value(Objective o, const opt::Selection& s, double watts) {
  return opt::objective_value(o, s.time, s.energy_pj, watts);
}

// Bounded against exact on one problem: the same answer when nothing was thinned; otherwise
// within `tolerance` (select_bounded's contract) and within the certified bound. Returns
// whether the bound was hit.
bool check_against_exact(const opt::SelectionProblem& p, Objective o, double watts, const opt::SelectionBound& bound) {
  const opt::Selection exact = opt::select_exact(p, o, watts);
  const opt::Selection bounded = opt::select_bounded(p, o, watts, bound);
  const double ve = value(o, exact, watts), vb = value(o, bounded, watts);
  if (bounded.thinned_steps == 0) {
    CHECK(bounded.choice == exact.choice);
    CHECK(bounded.time == exact.time);
    CHECK(bounded.energy_pj == exact.energy_pj);
    CHECK(bounded.gap_bound == 0.0);
    return false;
  }
  CHECK(vb >= ve * (1.0 - 1e-12));  // the exact one is the optimum
  CHECK(vb <= ve * (1.0 + bound.tolerance) * (1.0 + 1e-12));
  CHECK(vb <= ve * (1.0 + bounded.gap_bound) * (1.0 + 1e-12));
  CHECK(bounded.gap_bound <= bound.tolerance);
  return true;
}

// Parallel chains from a root into one sink, two or three candidates per op, real-valued
// costs: a batch layer's shape, whose EDP fronts grow with the chains.
opt::SelectionProblem wide_problem(std::mt19937& rng, int chains, int length) {
  opt::SelectionProblem p;
  std::uniform_int_distribution<int> cands(2, 3);
  std::uniform_int_distribution<int64_t> time(1, 1000);
  std::uniform_real_distribution<double> energy(0.5, 500.0);
  auto add_node = [&] {
    std::vector<opt::PairCost> c(static_cast<size_t>(cands(rng)));
    for (auto& x : c) x = {Time::ps(time(rng)), energy(rng)};
    p.node_cost.push_back(std::move(c));
    return static_cast<int>(p.node_cost.size()) - 1;
  };
  auto add_edge = [&](int from, int to) {
    opt::SelectionProblem::Edge e;
    e.from = from;
    e.to = to;
    const size_t pairs = p.node_cost[static_cast<size_t>(from)].size() * p.node_cost[static_cast<size_t>(to)].size();
    for (size_t i = 0; i < pairs; ++i) e.cost.push_back({Time::ps(time(rng) / 4), energy(rng) / 4});
    p.edges.push_back(std::move(e));
  };
  const int root = add_node();
  std::vector<int> ends;
  for (int c = 0; c < chains; ++c) {
    int at = root;
    for (int k = 0; k < length; ++k) {
      const int next = add_node();
      add_edge(at, next);
      at = next;
    }
    ends.push_back(at);
  }
  const int sink = add_node();
  for (int e : ends) add_edge(e, sink);
  return p;
}

frontend::Batch decodes(int count, int64_t context) {
  frontend::Batch b;
  for (int i = 0; i < count; ++i) b.sequences.push_back({1, context});
  return b;
}

}  // namespace

TEST_CASE("bounded selection on the random stacked DAGs: exact where the bound is not hit, within it where it is") {
  std::mt19937 rng(20261202);
  int hit = 0, missed = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const opt::SelectionProblem p = test::random_problem(rng, std::uniform_int_distribution<int>(1, 9)(rng));
    for (Objective o : {Objective::time, Objective::energy, Objective::edp}) {
      CAPTURE(trial);
      CAPTURE(opt::objective_name(o));
      // The shipped bound, and one that thins every front coarsely.
      for (const opt::SelectionBound& bound : {opt::kBoundedSelection, opt::SelectionBound{0.2, 0}}) {
        (check_against_exact(p, o, 0.25, bound) ? hit : missed) += 1;
      }
      CHECK(opt::select_bounded(p, o, 0.0, opt::kExactSelection).choice == opt::select_exact(p, o).choice);
    }
  }
  CHECK(hit > 0);  // both outcomes occur
  CHECK(missed > 0);
}

TEST_CASE("bounded selection on wide batch-like DAGs: fronts thinned, answers within the tolerance") {
  std::mt19937 rng(20261205);
  int hit = 0, changed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const opt::SelectionProblem p = wide_problem(rng, 5, 2);
    for (double watts : {0.0, 0.5}) {
      for (const opt::SelectionBound& bound :
           {opt::kBoundedSelection, opt::SelectionBound{1e-2, 4}, opt::SelectionBound{0.1, 0}}) {
        CAPTURE(trial);
        CAPTURE(bound.tolerance);
        hit += check_against_exact(p, Objective::edp, watts, bound) ? 1 : 0;
        changed += opt::select_bounded(p, Objective::edp, watts, bound).choice !=
                           opt::select_exact(p, Objective::edp, watts).choice
                       ? 1
                       : 0;
      }
      // Time and energy keep one alternative per state: never thinned.
      for (Objective o : {Objective::time, Objective::energy}) {
        CHECK(opt::select_bounded(p, o, watts, opt::SelectionBound{0.1, 0}).thinned_steps == 0);
      }
    }
  }
  CHECK(hit > 0);
  CHECK(changed > 0);  // the bound does change answers here, and they stay within it
}

// The selection problems of GPT-2 and Llama-2-7B batch graphs (as the serving pipeline builds
// them: decodes at context 512, one with a prefill chunk), EDP with the system's static power
// as the joint search's EDP seed solves them.
TEST_CASE("bounded selection on gpt2 and llama-2-7b batches: identical where not thinned, within the tolerance") {
  const hw::System system = hw::System::load(test::system_file("h100_sxm"), hw::profile_named("default"));
  const double static_w = hw::static_power_watts(system);
  frontend::Batch mixed = decodes(8, 512);
  mixed.sequences.push_back({256, 512});
  struct Case {
    const char* model;
    frontend::Batch batch;
  };
  int thinned = 0, problems = 0;
  for (const Case& c : {Case{"gpt2", decodes(1, 512)}, Case{"gpt2", decodes(32, 512)}, Case{"gpt2", mixed},
                        Case{"llama-2-7b", decodes(1, 512)}, Case{"llama-2-7b", decodes(4, 512)}}) {
    CAPTURE(c.model);
    CAPTURE(c.batch.sequences.size());
    const ir::Graph g = frontend::build_iteration(frontend::builtin_model(c.model), c.batch, frontend::Logits::last);
    const opt::StackedGraph stacks(g, system);
    const opt::Partition part = opt::partition_for(stacks);
    const opt::Placement exact = opt::place(stacks, part, Objective::edp, true, static_w);
    const opt::Placement bounded = opt::place(stacks, part, Objective::edp, true, static_w, opt::kBoundedSelection);
    CHECK(exact.thinned == 0);
    CHECK(bounded.gap_bound <= opt::kBoundedSelection.tolerance);
    if (bounded.thinned == 0) CHECK(bounded.choice == exact.choice);
    for (const opt::SelectionProblem& p : opt::subgraph_problems(stacks, part, exact.choice)) {
      thinned += check_against_exact(p, Objective::edp, static_w, opt::kBoundedSelection) ? 1 : 0;
      ++problems;
    }
  }
  MESSAGE(thinned << " of " << problems << " subgraph problems thinned");
  CHECK(thinned > 0);  // the batches hit the bound
}
