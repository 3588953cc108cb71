// Lower bounds on a placement's reported figures (joint_placement.hpp). Why they hold, for
// every placement the default profile can expand and schedule:
//  - an op's tasks run at least its fastest candidate's time (a fused group's kernel sits on
//    its anchor and its other members cost nothing, so a member's minimum is never above its
//    share), on one instance, after its inputs: the longest path of minimum times bounds the
//    makespan, and so does the sum of minimum times over every unit instance of the system;
//  - expansion and transfers only add tasks, time and energy (all non-negative);
//  - the report charges static power x makespan, so minimum dynamic energies plus static power
//    x the time bound bound the energy; the product of the two bounds bounds the EDP.
#include <algorithm>

#include "sim/joint/joint_placement.hpp"
#include "sim/sched/analytical.hpp"

namespace lightcode::joint {

double LowerBound::score(opt::Objective objective) const {
  return opt::objective_value(objective, makespan, energy_pj);
}

LowerBound lower_bound(const opt::StackedGraph& stacks) {
  const ir::Graph& g = stacks.graph();
  const hw::System& system = stacks.system();
  constexpr std::string_view kBound = "the placement's lower bound";
  std::vector<Time> path(g.size());
  Time work;
  LowerBound b;
  for (size_t i = 0; i < g.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    Time least = Time::max();
    double least_pj = 0.0;
    bool first = true;
    for (const opt::Candidate* c = stacks.begin(id); c != stacks.end(id); ++c) {
      least = std::min(least, c->cost.time);
      least_pj =
          first ? c->cost.energy.picojoules() : std::min(least_pj, c->cost.energy.picojoules());
      first = false;
    }
    Time ready;
    for (const ir::Input& in : g.node(id).inputs)
      ready = std::max(ready, path[static_cast<size_t>(in.node)]);
    path[i] = ready.plus(least, kBound);
    work = work.plus(least, kBound);
    b.energy_pj += least_pj;
  }
  int64_t instances = 0;
  for (int count : sched::unit_instances(system)) instances += count;
  const double static_w = hw::static_power_watts(system);
  const Time critical = g.size() == 0 ? Time::zero() : *std::max_element(path.begin(), path.end());
  const Time spread =
      Time::ps(work.count_ps() / std::max<int64_t>(1, instances));  // rounds down: still a bound
  b.makespan = std::max(critical, spread);
  // Less one part in 10^9: the report sums the same energies in another order, and a bound
  // that the answer meets exactly must not exceed it by a rounding.
  constexpr double kRounding = 1.0 - 1e-9;
  b.energy_pj = check_energy(
      (b.energy_pj + static_w * static_cast<double>(b.makespan.count_ps())) * kRounding, kBound);
  return b;
}

}  // namespace lightcode::joint
