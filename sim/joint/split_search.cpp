#include "sim/joint/split_search.hpp"

#include <algorithm>
#include <vector>

#include "sim/core/error.hpp"

namespace lightcode::joint {
namespace {

Answer search(std::unique_ptr<const ir::Graph> graph, const hw::System& system,
              opt::Objective objective, const sched::SchedulingPolicy& policy,
              const JointOptions& options) {
  Answer a;
  a.graph = std::move(graph);
  a.stacks = std::make_unique<const opt::StackedGraph>(*a.graph, system);
  a.part = opt::partition_for(*a.stacks);
  a.result = place_jointly(*a.stacks, a.part, objective, policy, options);
  return a;
}

// The fastest single-op candidate of `id` on a unit type the predicate accepts, or -1.
hw::UnitType fastest_unit(const opt::StackedGraph& stacks, ir::NodeId id, bool photonic) {
  hw::UnitType best = -1;
  Time best_time = Time::max();
  for (const opt::Candidate* c = stacks.begin(id); c != stacks.end(id); ++c) {
    if (c->group >= 0 || stacks.system().model(c->unit).capabilities().photonic != photonic)
      continue;
    if (c->cost.time < best_time) {
      best_time = c->cost.time;
      best = c->unit;
    }
  }
  return best;
}

struct Try {
  ir::NodeId product;
  hw::UnitType photonic, electronic;
  Time time;
};

// Products worth a split: a photonic and an electronic candidate, and at least kSplitShare of
// the makespan on their chosen candidate; the longest first.
std::vector<Try> split_candidates(const Answer& a) {
  const opt::StackedGraph& stacks = *a.stacks;
  const double makespan = a.result.cost.makespan.seconds();
  std::vector<Try> out;
  for (size_t i = 0; i < stacks.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (!ir::is_matrix_product(stacks.graph().node(id).kind)) continue;
    const opt::Candidate& chosen = stacks.candidate(id, a.result.placement.choice[i]);
    if (chosen.cost.time.seconds() < kSplitShare * makespan) continue;
    const hw::UnitType photonic = fastest_unit(stacks, id, true);
    const bool chosen_electronic =
        chosen.group < 0 && !stacks.system().model(chosen.unit).capabilities().photonic;
    const hw::UnitType electronic =
        chosen_electronic ? chosen.unit : fastest_unit(stacks, id, false);
    if (photonic < 0 || electronic < 0) continue;
    out.push_back(Try{id, photonic, electronic, chosen.cost.time});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Try& x, const Try& y) { return x.time > y.time; });
  if (out.size() > static_cast<size_t>(kSplitTries)) out.resize(static_cast<size_t>(kSplitTries));
  return out;
}

}  // namespace

Answer place_with_splits(std::unique_ptr<const ir::Graph> graph, const hw::System& system,
                         opt::Objective objective, const sched::SchedulingPolicy& policy,
                         const JointOptions& options) {
  Answer best = search(std::move(graph), system, objective, policy, options);
  const std::vector<Try> tries = split_candidates(best);
  int tried = 0;
  for (const Try& t : tries) {
    opt::SplitPlan plan;
    try {
      plan = opt::balanced_split(*best.stacks, t.product, t.photonic, t.electronic);
    } catch (const Error&) {
      continue;  // a product with one row, or operands the system cannot route to a unit: no split
    }
    auto split =
        std::make_unique<const ir::Graph>(opt::split_rows(*best.graph, t.product, plan.rows_a));
    const opt::SplitIds ids = opt::split_ids(t.product);
    JointOptions pinned = options;
    pinned.pinned.emplace_back(ids.rows_a, t.photonic);
    pinned.pinned.emplace_back(ids.rows_b, t.electronic);
    Answer a = search(std::move(split), system, objective, policy, pinned);
    ++tried;
    if (a.result.score < best.result.score) {
      a.split = SplitDone{best.graph->node(t.product).name, plan};
      best = std::move(a);
      break;  // one split per answer: the other tries were ranked on the unsplit graph
    }
  }
  best.split_tries = tried;
  return best;
}

}  // namespace lightcode::joint
