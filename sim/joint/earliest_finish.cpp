#include "sim/joint/earliest_finish.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "sim/sched/analytical.hpp"

namespace lightcode::joint {
namespace {

constexpr std::string_view kEstimate = "the earliest-finish estimate of a placement";

Time fastest(const opt::StackedGraph& stacks, ir::NodeId id) {
  Time best = Time::max();
  for (const opt::Candidate* c = stacks.begin(id); c != stacks.end(id); ++c)
    best = std::min(best, c->cost.time);
  return best;
}

// Ops by decreasing upward rank, ties by id: a topological order (ids are one, and an op's
// rank is at least each consumer's).
std::vector<ir::NodeId> rank_order(const opt::StackedGraph& stacks) {
  const ir::Graph& g = stacks.graph();
  const auto consumers = g.consumers();
  std::vector<Time> rank(g.size());
  for (size_t i = g.size(); i-- > 0;) {
    Time longest;
    for (const ir::Graph::Use& u : consumers[i])
      longest = std::max(longest, rank[static_cast<size_t>(u.consumer)]);
    rank[i] = longest.plus(fastest(stacks, static_cast<ir::NodeId>(i)), kEstimate);
  }
  std::vector<ir::NodeId> order(g.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](ir::NodeId a, ir::NodeId b) {
    return rank[static_cast<size_t>(a)] > rank[static_cast<size_t>(b)];
  });
  return order;
}

}  // namespace

std::vector<int32_t> earliest_finish_placement(const opt::StackedGraph& stacks,
                                               const std::vector<int32_t>& seed, double watts) {
  const ir::Graph& g = stacks.graph();
  const hw::System& system = stacks.system();
  const std::vector<int> instances = sched::unit_instances(system);
  std::vector<std::vector<Time>> free_at(instances.size());
  for (size_t t = 0; t < instances.size(); ++t)
    free_at[t].assign(static_cast<size_t>(std::max(1, instances[t])), Time::zero());
  std::vector<int32_t> choice = seed;
  std::vector<Time> finish(g.size());
  Time latest;
  for (ir::NodeId id : rank_order(stacks)) {
    const ir::Node& node = g.node(id);
    const int32_t fixed = seed[static_cast<size_t>(id)];
    const bool redecide = stacks.candidate(id, fixed).group < 0 && stacks.candidate_count(id) > 1;
    double best_score = std::numeric_limits<double>::infinity();
    int32_t best = fixed;
    Time best_finish;
    for (int32_t k = 0; k < stacks.candidate_count(id); ++k) {
      if (redecide ? stacks.candidate(id, k).group >= 0 : k != fixed) continue;
      const opt::Candidate& c = stacks.candidate(id, k);
      Time ready;
      double energy = c.cost.energy.picojoules();
      for (size_t p = 0; p < node.inputs.size(); ++p) {
        const ir::NodeId from = node.inputs[p].node;
        const opt::Candidate& pc = stacks.candidate(from, choice[static_cast<size_t>(from)]);
        Time arrive = finish[static_cast<size_t>(from)];
        const bool inside = pc.group >= 0 && pc.group == c.group;
        if (!inside && !stacks.shared_read(c, id, static_cast<int>(p))) {
          const hw::Cost move = stacks.edge_cost(id, static_cast<int>(p), pc.unit, c.unit);
          arrive = arrive.plus(move.time, kEstimate);
          energy += move.energy.picojoules();
        }
        ready = std::max(ready, arrive);
      }
      const std::vector<Time>& queue = free_at[static_cast<size_t>(c.unit)];
      const Time start = std::max(ready, *std::min_element(queue.begin(), queue.end()));
      const Time end = start.plus(c.cost.time, kEstimate);
      const double pushed =
          static_cast<double>(std::max(end, latest).count_ps() - latest.count_ps());
      const double score =
          watts > 0.0 ? energy + watts * pushed : static_cast<double>(end.count_ps());
      if (score < best_score) {
        best_score = score;
        best = k;
        best_finish = end;
      }
    }
    choice[static_cast<size_t>(id)] = best;
    finish[static_cast<size_t>(id)] = best_finish;
    std::vector<Time>& queue = free_at[static_cast<size_t>(stacks.candidate(id, best).unit)];
    *std::min_element(queue.begin(), queue.end()) = best_finish;
    latest = std::max(latest, best_finish);
  }
  return choice;
}

}  // namespace lightcode::joint
