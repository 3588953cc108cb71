// The selector is exact: on many random small stacked DAGs (branches, merges, 1-3 candidates
// per stack) it equals brute-force enumeration, for every objective; and it is deterministic.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/opt/selection.hpp"
#include "tests/support/random_selection.hpp"

using namespace lightcode::opt;

namespace {

constexpr lightcode::Time ps(int64_t n) { return lightcode::Time::ps(n); }
using lightcode::test::random_problem;

// Two ops in a row, each with a cheap-slow and a costly-fast candidate whose energies, summed,
// pass a double.
SelectionProblem overflowing_pair() {
  SelectionProblem p;
  p.node_cost = {{{ps(10), 1.0}, {ps(1), 1e308}}, {{ps(10), 1.0}, {ps(1), 1e308}}};
  SelectionProblem::Edge e;
  e.from = 0;
  e.to = 1;
  e.cost.assign(4, PairCost{});
  p.edges.push_back(e);
  return p;
}

}  // namespace

TEST_CASE("selector equals brute force on 600 random stacked DAGs, all objectives") {
  std::mt19937 rng(20261202);
  for (int trial = 0; trial < 600; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 9)(rng);
    const SelectionProblem p = random_problem(rng, n);
    for (Objective o : {Objective::time, Objective::energy, Objective::edp}) {
      CAPTURE(trial);
      CAPTURE(objective_name(o));
      const Selection exact = select_exact(p, o);
      const Selection brute = select_brute_force(p, o);
      const Selection check = evaluate(p, exact.choice);
      CHECK(check.time == exact.time);
      CHECK(check.energy_pj == doctest::Approx(exact.energy_pj));
      CHECK(objective_value(o, exact.time, exact.energy_pj) ==
            doctest::Approx(objective_value(o, brute.time, brute.energy_pj)).epsilon(1e-12));
    }
  }
}

// Fused groups as the placement encodes them: one extra candidate per member of a random group
// (the last candidate of each member), all members choose it or none (forbidden pairs between
// consecutive members), edges inside a chosen group free.
SelectionProblem with_group(std::mt19937& rng, SelectionProblem p, std::vector<int>& members) {
  const int n = static_cast<int>(p.node_cost.size());
  for (int v = 0; v < n; ++v) {
    if (std::uniform_int_distribution<int>(0, 2)(rng) == 0 || members.empty()) members.push_back(v);
    if (members.size() == 4) break;
  }
  std::vector<uint8_t> in(static_cast<size_t>(n), 0);
  for (int v : members) {
    in[static_cast<size_t>(v)] = 1;
    p.node_cost[static_cast<size_t>(v)].push_back({lightcode::Time::ps(v == members.front() ? 700 : 0), 0.0});
  }
  auto fused = [&](int v, int c) {
    return in[static_cast<size_t>(v)] != 0 && c + 1 == static_cast<int>(p.node_cost[static_cast<size_t>(v)].size());
  };
  for (auto& e : p.edges) {  // re-lay each edge's matrix for the grown candidate counts
    const size_t from_n = p.node_cost[static_cast<size_t>(e.from)].size(), to_n = p.node_cost[static_cast<size_t>(e.to)].size();
    const size_t old_to = to_n - (in[static_cast<size_t>(e.to)] ? 1 : 0);
    std::vector<PairCost> c(from_n * to_n);
    for (size_t a = 0; a < from_n; ++a) {
      for (size_t b = 0; b < to_n; ++b) {
        const bool fa = fused(e.from, static_cast<int>(a)), fb = fused(e.to, static_cast<int>(b));
        PairCost& x = c[a * to_n + b];
        if (in[static_cast<size_t>(e.from)] && in[static_cast<size_t>(e.to)] && fa != fb) {
          x.forbidden = true;
        } else if (!(fa && fb)) {
          const size_t ua = std::min(a, from_n - 1 - (in[static_cast<size_t>(e.from)] ? 1 : 0));
          const size_t ub = std::min(b, old_to - 1);
          x = e.cost[ua * old_to + ub];
        }
      }
    }
    e.cost = std::move(c);
  }
  for (size_t i = 0; i + 1 < members.size(); ++i) {
    SelectionProblem::Edge e;
    e.from = members[i];
    e.to = members[i + 1];
    const size_t fn = p.node_cost[static_cast<size_t>(e.from)].size(), tn = p.node_cost[static_cast<size_t>(e.to)].size();
    e.cost.resize(fn * tn);
    for (size_t a = 0; a < fn; ++a) {
      for (size_t b = 0; b < tn; ++b) {
        e.cost[a * tn + b].forbidden = fused(e.from, static_cast<int>(a)) != fused(e.to, static_cast<int>(b));
      }
    }
    p.edges.push_back(std::move(e));
  }
  return p;
}

TEST_CASE("with fused groups (all members or none) the selector still equals brute force") {
  std::mt19937 rng(20261203);
  int chosen_fused = 0, chosen_apart = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    std::vector<int> members;
    const SelectionProblem p = with_group(rng, random_problem(rng, n), members);
    for (Objective o : {Objective::time, Objective::energy, Objective::edp}) {
      CAPTURE(trial);
      const Selection exact = select_exact(p, o);
      const Selection brute = select_brute_force(p, o);
      CHECK(evaluate(p, exact.choice).feasible);
      CHECK(objective_value(o, exact.time, exact.energy_pj) ==
            doctest::Approx(objective_value(o, brute.time, brute.energy_pj)).epsilon(1e-12));
      // All members or none.
      int fused = 0;
      for (int v : members) {
        fused += exact.choice[static_cast<size_t>(v)] + 1 == static_cast<int>(p.node_cost[static_cast<size_t>(v)].size());
      }
      CHECK((fused == 0 || fused == static_cast<int>(members.size())));
      (fused == 0 ? chosen_apart : chosen_fused) += members.size() > 1 ? 1 : 0;
    }
  }
  CHECK(chosen_fused > 0);  // both outcomes occur: the test sees the constraint bind
  CHECK(chosen_apart > 0);
}

TEST_CASE("selection is deterministic") {
  std::mt19937 rng(7);
  const SelectionProblem p = random_problem(rng, 9);
  const Selection a = select_exact(p, Objective::energy);
  for (int i = 0; i < 5; ++i) CHECK(select_exact(p, Objective::energy).choice == a.choice);
}

TEST_CASE("a long narrow chain keeps the DP state small") {
  SelectionProblem p;
  for (int v = 0; v < 2000; ++v) {
    p.node_cost.push_back({{ps(10), 1.0}, {ps(5), 3.0}});
    if (v > 0) {
      SelectionProblem::Edge e;
      e.from = v - 1;
      e.to = v;
      e.cost = {{ps(0), 0}, {ps(7), 2}, {ps(7), 2}, {ps(0), 0}};  // switching hardware costs a transfer
      p.edges.push_back(e);
    }
  }
  const Selection s = select_exact(p, Objective::time);
  CHECK(s.time == ps(2000 * 5));
  CHECK(s.peak_states <= 2);
}

// A batch's shape: a root read by parallel chains that all meet at a sink, so every chain's
// end stays open until the sink; small integer costs make many equal sums (the EDP front keeps
// the first offer of each value). Equal to brute force, for every objective, with static power.
TEST_CASE("parallel branches into one sink: the selector equals brute force") {
  std::mt19937 rng(20261204);
  std::uniform_int_distribution<int> cands(1, 3), cost(0, 4);
  auto costs = [&](size_t count) {
    std::vector<PairCost> c(count);
    for (auto& x : c) x = {ps(cost(rng)), 0.5 * cost(rng)};
    return c;
  };
  for (int trial = 0; trial < 150; ++trial) {
    SelectionProblem p;
    auto add_node = [&]() {
      p.node_cost.push_back(costs(static_cast<size_t>(cands(rng))));
      return static_cast<int>(p.node_cost.size()) - 1;
    };
    auto add_edge = [&](int from, int to) {
      SelectionProblem::Edge e;
      e.from = from;
      e.to = to;
      e.cost = costs(p.node_cost[static_cast<size_t>(from)].size() *
                     p.node_cost[static_cast<size_t>(to)].size());
      p.edges.push_back(std::move(e));
    };
    const int root = add_node();
    std::vector<int> ends;
    const int branches = std::uniform_int_distribution<int>(2, 4)(rng);
    for (int b = 0; b < branches; ++b) {
      const int first = add_node();
      add_edge(root, first);
      const int second = add_node();
      add_edge(first, second);
      ends.push_back(second);
    }
    const int sink = add_node();
    for (int e : ends) add_edge(e, sink);
    for (Objective o : {Objective::time, Objective::energy, Objective::edp}) {
      for (double watts : {0.0, 0.25}) {
        CAPTURE(trial);
        CAPTURE(objective_name(o));
        CAPTURE(watts);
        const Selection exact = select_exact(p, o, watts);
        const Selection brute = select_brute_force(p, o, watts);
        CHECK(objective_value(o, exact.time, exact.energy_pj, watts) ==
              doctest::Approx(objective_value(o, brute.time, brute.energy_pj, watts))
                  .epsilon(1e-12));
        CHECK(select_exact(p, o, watts).choice == exact.choice);
      }
    }
  }
}

TEST_CASE("energies near the double's range: a sum that overflows names its op, weights that overflow still order") {
  SelectionProblem p = overflowing_pair();
  // Time: both fast candidates, whose energies sum past a double: an error naming the second
  // op's candidate (this used to end as "no allowed assignment", an internal error).
  try {
    select_exact(p, Objective::time);
    FAIL("an energy sum of 2e308 pJ was accepted");
  } catch (const SelectionOverflow& o) {
    CHECK(o.variable == 1);
    CHECK(o.candidate == 1);
    CHECK(std::string(o.what()).find("the sum of op and edge energies the selector minimises is not representable") !=
          std::string::npos);
  }
  // Energy + P x time with a power that overflows every weight (e + 1e300 W x 10 ps): the same
  // order at a smaller scale, so the cheap candidates still win.
  p.node_cost = {{{ps(10), 1.0}, {ps(11), 5.0}}, {{ps(10), 1.0}, {ps(9), 2.0}}};
  const Selection s = select_exact(p, Objective::energy, 1e307);
  CHECK(s.choice == std::vector<int>{0, 1});  // the least time, as the power dominates
  CHECK(select_exact(p, Objective::energy, 0.0).choice == std::vector<int>{0, 0});
  // EDP of 1e300 pJ x 2e10 ps: every weight overflows; the order of the products is kept.
  p.node_cost = {{{ps(20'000'000'000), 1e300}, {ps(10'000'000'000), 3e300}}, {{ps(1), 1.0}}};
  p.edges[0].cost.assign(2, PairCost{});
  CHECK(select_exact(p, Objective::edp).choice == std::vector<int>{0, 0});
}

TEST_CASE("select_exact_many: each power's answer is select_exact's at that power, every field") {
  // Random problems (with ties: a coarse energy grid), at ten powers from 0 to one that
  // makes time dominate; also a power whose weights overflow (that lane scaled alone).
  std::mt19937 rng(20261204);
  const std::vector<double> watts{0.0, 1e-9, 0.01, 0.1, 0.5, 1.0, 2.0, 8.0, 100.0, 1e307};
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    SelectionProblem p = random_problem(rng, std::uniform_int_distribution<int>(1, 12)(rng));
    if (trial % 2 == 0) {  // ties
      for (auto& costs : p.node_cost)
        for (PairCost& c : costs) c.energy_pj = std::round(c.energy_pj / 100.0);
    }
    for (Objective o : {Objective::time, Objective::energy, Objective::edp}) {
      CAPTURE(objective_name(o));
      const std::vector<Selection> many = select_exact_many(p, o, watts);
      REQUIRE(many.size() == watts.size());
      for (size_t l = 0; l < watts.size(); ++l) {
        CAPTURE(watts[l]);
        const Selection one = select_exact(p, o, watts[l]);
        CHECK(many[l].choice == one.choice);
        CHECK(many[l].time == one.time);
        CHECK(many[l].energy_pj == one.energy_pj);
        CHECK(many[l].peak_states == one.peak_states);
      }
    }
  }
}

TEST_CASE("select_exact_many: sums that overflow throw as select_exact does, naming the same op") {
  const SelectionProblem p = overflowing_pair();
  // Every move is summed, whatever the power: the fast candidates' energies pass a double.
  for (const std::vector<double>& watts : {std::vector<double>{0.0, 1e20}, std::vector<double>{5.0, 1.0}}) {
    try {
      select_exact_many(p, Objective::energy, watts);
      FAIL("an energy sum of 2e308 pJ was accepted");
    } catch (const SelectionOverflow& o) {
      CHECK(o.variable == 1);
      CHECK(o.candidate == 1);
    }
  }
}
