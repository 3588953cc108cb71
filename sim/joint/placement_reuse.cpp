#include "sim/joint/placement_reuse.hpp"

#include <cmath>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/joint/earliest_finish.hpp"
#include "sim/opt/split_product.hpp"
#include "sim/sched/analytical.hpp"

namespace lightcode::joint {

std::vector<int64_t> placement_structure(const opt::StackedGraph& stacks) {
  const ir::Graph& graph = stacks.graph();
  std::vector<int64_t> s;
  s.reserve(graph.size() * 8);
  s.push_back(static_cast<int64_t>(graph.size()));
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    const ir::Node& n = graph.node(id);
    s.push_back(static_cast<int64_t>(n.kind));
    s.push_back(static_cast<int64_t>(n.role));
    s.push_back(static_cast<int64_t>(n.outputs.size()));
    s.push_back(static_cast<int64_t>(n.inputs.size()));
    for (const ir::Input& in : n.inputs) {
      s.push_back(in.node);
      s.push_back(in.output);
    }
    s.push_back(stacks.candidate_count(id));
    for (const opt::Candidate* c = stacks.begin(id); c != stacks.end(id); ++c) {
      s.push_back(c->unit);
      s.push_back(c->algorithm);
      s.push_back(c->group);
      s.push_back(static_cast<int64_t>(c->shared_reads));
    }
  }
  s.push_back(static_cast<int64_t>(stacks.groups().size()));
  for (const opt::FusedStack& g : stacks.groups()) {
    s.push_back(static_cast<int64_t>(g.kernel.members.size()));
    for (const ir::NodeId m : g.kernel.members) s.push_back(m);
    for (const auto& [unit, cost] : g.costs) s.push_back(unit);
  }
  return s;
}

bool PlacementReuse::reuse(const Known& known, Answer& a, opt::Objective objective,
                           const sched::SchedulingPolicy& policy) const {
  Answer split;  // the class splits a product: the same product, split for these sizes
  if (known.split) {
    const Split& s = *known.split;
    opt::SplitPlan plan;
    try {
      plan = opt::balanced_split(*a.stacks, s.product, s.unit_a, s.unit_b);
    } catch (const Error&) {
      return false;  // not splittable at these sizes: its own search
    }
    split.graph = std::make_unique<const ir::Graph>(opt::split_rows(*a.graph, s.product, plan.rows_a));
    split.stacks = std::make_unique<const opt::StackedGraph>(*split.graph, a.stacks->system());
    if (placement_structure(*split.stacks) != s.structure) return false;
    split.part = opt::partition_for(*split.stacks);
    split.split = SplitDone{a.graph->node(s.product).name, plan};
  }
  Answer& at = known.split ? split : a;
  const hw::System& system = at.stacks->system();
  const std::vector<int> instances = sched::unit_instances(system);
  const opt::ObjectiveInfo& info = opt::objective_info(objective);
  const auto timed = [&](std::vector<int32_t> choice) {
    JointResult r;
    r.placement.choice = std::move(choice);
    r.tasks = opt::expand(*at.stacks, at.part, r.placement);
    r.schedule = sched::schedule(r.tasks, instances, policy);
    r.cost = sched::reported_cost(r.tasks, r.schedule, system);
    r.score = info.score(r.cost.makespan, r.cost.energy_pj);
    return r;
  };
  JointResult r = timed(known.choice);
  // The guard: list scheduling from the reused placement at these sizes (cheap, and aware of
  // the units' overlap, which is what moves with load). When it does better by more than the
  // tolerance, the sizes have moved the answer: the caller searches the graph itself.
  // (A guard that places alike scores alike: it is timed only when it differs.)
  const double watts = objective == opt::Objective::time ? 0.0 : hw::static_power_watts(system);
  std::vector<int32_t> listed = earliest_finish_placement(*at.stacks, known.choice, watts);
  if (!std::isfinite(r.score)) return false;
  if (listed != known.choice && timed(std::move(listed)).score < r.score * (1.0 - kReuseTolerance)) return false;
  r.origin = "reused:" + known.origin;
  r.lower_bound = lower_bound(*at.stacks).score(objective);
  r.gap = r.lower_bound > 0.0 ? r.score / r.lower_bound - 1.0 : 0.0;
  r.front.push_back(ParetoPoint{r.cost.makespan, r.cost.energy_pj, r.origin});
  r.edp_seed_gap_bound = known.edp_seed_gap_bound;
  at.result = std::move(r);
  if (known.split) a = std::move(split);
  return true;
}

Answer PlacementReuse::search(std::unique_ptr<const ir::Graph> graph, const hw::System& system,
                              opt::Objective objective, const sched::SchedulingPolicy& policy,
                              const JointOptions& options, Known* known) {
  Answer a = place_with_splits(std::move(graph), system, objective, policy, options);
  ++searches_;
  if (known == nullptr) return a;
  known->choice = a.result.placement.choice;
  known->origin = a.result.origin;
  known->edp_seed_gap_bound = a.result.edp_seed_gap_bound;
  if (!a.split) return a;
  // split_rows put the first slice where the product was (split_ids).
  const std::string slice = a.split->product + "/rows_a_slice";
  Split s;
  for (size_t i = 0; i < a.graph->size(); ++i) {
    if (a.graph->node(static_cast<ir::NodeId>(i)).name == slice) s.product = static_cast<ir::NodeId>(i);
  }
  if (s.product < 0) throw Error("placement reuse: the split graph has no node '" + slice + "'");
  s.unit_a = a.split->plan.unit_a;
  s.unit_b = a.split->plan.unit_b;
  s.structure = placement_structure(*a.stacks);
  known->split = std::move(s);
  return a;
}

Answer PlacementReuse::place(std::unique_ptr<const ir::Graph> graph, const std::vector<int64_t>& representative,
                             const Build& build_representative, const hw::System& system,
                             opt::Objective objective, const sched::SchedulingPolicy& policy,
                             const JointOptions& options) {
  const Known* found = nullptr;
  {
    const std::lock_guard<std::mutex> lock(known_mutex_);
    auto it = known_.find(representative);
    if (it == known_.end()) {
      Known known;
      std::unique_ptr<const ir::Graph> rep = build_representative();
      {  // before the search, whose answer's stacks may be of a split copy
        const opt::StackedGraph stacks(*rep, system);
        known.structure = placement_structure(stacks);
      }
      (void)search(std::move(rep), system, objective, policy, options, &known);
      it = known_.emplace(representative, std::move(known)).first;
    }
    found = &it->second;
  }
  Answer a;
  a.graph = std::move(graph);
  a.stacks = std::make_unique<const opt::StackedGraph>(*a.graph, system);
  a.part = opt::partition_for(*a.stacks);
  if (placement_structure(*a.stacks) == found->structure && reuse(*found, a, objective, policy)) {
    ++reuses_;
    return a;
  }
  // Another structure, or sizes that moved the answer: the graph's own search.
  a.stacks.reset();  // refers to the graph, which the search takes
  return search(std::move(a.graph), system, objective, policy, options, nullptr);
}

}  // namespace lightcode::joint
