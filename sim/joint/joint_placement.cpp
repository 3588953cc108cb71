#include "sim/joint/joint_placement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "sim/joint/earliest_finish.hpp"
#include "sim/opt/split_product.hpp"
#include "sim/sched/analytical.hpp"

namespace lightcode::joint {
namespace {

struct Entry {
  std::vector<int32_t> choice;
  sched::ReportedCost cost;
  std::string origin;
};

bool dominates(const sched::ReportedCost& a, const sched::ReportedCost& b) {
  return a.makespan <= b.makespan && a.energy_pj <= b.energy_pj;
}

// Whether every fused group chosen by one member is chosen, on one unit, by all of them.
bool consistent(const opt::StackedGraph& stacks, const std::vector<int32_t>& choice) {
  for (size_t i = 0; i < choice.size(); ++i) {
    const opt::Candidate& c = stacks.candidate(static_cast<ir::NodeId>(i), choice[i]);
    if (c.group < 0) continue;
    for (ir::NodeId m : stacks.group(c.group).kernel.members) {
      const opt::Candidate& mc = stacks.candidate(m, choice[static_cast<size_t>(m)]);
      if (mc.group != c.group || mc.unit != c.unit) return false;
    }
  }
  return true;
}

class Search {
 public:
  Search(const opt::StackedGraph& stacks, const opt::Partition& part,
         const sched::SchedulingPolicy& policy, const JointOptions& options)
      : stacks_(stacks),
        part_(part),
        policy_(policy),
        instances_(sched::unit_instances(stacks.system())),
        budget_(std::max(1, options.evaluations)),
        pinned_(options.pinned) {}

  // Whether `choice` runs every pinned op alone on its unit.
  bool keeps_pins(const std::vector<int32_t>& choice) const {
    for (const auto& [node, unit] : pinned_) {
      const opt::Candidate& c = stacks_.candidate(node, choice[static_cast<size_t>(node)]);
      if (c.unit != unit || c.group >= 0) return false;
    }
    return true;
  }

  bool exhausted() const { return evaluations_ >= budget_; }
  int evaluations() const { return evaluations_; }
  const std::vector<Entry>& archive() const { return archive_; }

  // Expands, schedules and charges `choice` (once per distinct placement) and keeps it when
  // nothing in the archive dominates it. Seeds and exhaustive runs may pass the budget.
  // Pinned ops are put on their units first.
  void offer(std::vector<int32_t> choice, const std::string& origin) {
    if (!keeps_pins(choice)) {
      opt::Placement p;
      p.choice = std::move(choice);
      for (const auto& [node, unit] : pinned_) opt::force_unit(stacks_, p, node, unit);
      choice = std::move(p.choice);
    }
    if (!seen_.insert(choice).second) return;
    ++evaluations_;
    const Timed t = time(choice);
    for (const Entry& e : archive_) {
      if (dominates(e.cost, t.cost)) return;
    }
    archive_.erase(std::remove_if(archive_.begin(), archive_.end(),
                                  [&](const Entry& e) { return dominates(t.cost, e.cost); }),
                   archive_.end());
    const auto at = std::lower_bound(archive_.begin(), archive_.end(), t.cost.makespan,
                                     [](const Entry& e, Time m) { return e.cost.makespan < m; });
    archive_.insert(at, Entry{choice, t.cost, origin});
  }

  struct Timed {
    opt::TaskGraph tasks;
    sched::Schedule schedule;
    sched::ReportedCost cost;
  };
  Timed time(const std::vector<int32_t>& choice) const {
    opt::Placement p;
    p.choice = choice;
    Timed t;
    t.tasks = opt::expand(stacks_, part_, p);
    t.schedule = sched::schedule(t.tasks, instances_, policy_);
    t.cost = sched::reported_cost(t.tasks, t.schedule, stacks_.system());
    return t;
  }

 private:
  const opt::StackedGraph& stacks_;
  const opt::Partition& part_;
  const sched::SchedulingPolicy& policy_;
  std::vector<int> instances_;
  int budget_;
  std::vector<std::pair<ir::NodeId, hw::UnitType>> pinned_;
  int evaluations_ = 0;
  std::set<std::vector<int32_t>> seen_;
  std::vector<Entry> archive_;
};

// The number of placements (every candidate of every op), or -1 above `limit`.
int64_t placements(const opt::StackedGraph& stacks, int64_t limit) {
  int64_t n = 1;
  for (size_t i = 0; i < stacks.size(); ++i) {
    n *= stacks.candidate_count(static_cast<ir::NodeId>(i));
    if (n > limit) return -1;
  }
  return n;
}

void enumerate_all(const opt::StackedGraph& stacks, Search& search) {
  std::vector<ir::NodeId> free;
  for (size_t i = 0; i < stacks.size(); ++i) {
    if (stacks.candidate_count(static_cast<ir::NodeId>(i)) > 1)
      free.push_back(static_cast<ir::NodeId>(i));
  }
  std::vector<int32_t> choice(stacks.size(), 0);
  for (;;) {
    if (consistent(stacks, choice) && search.keeps_pins(choice)) search.offer(choice, "exhaustive");
    size_t k = 0;
    while (k < free.size() &&
           ++choice[static_cast<size_t>(free[k])] == stacks.candidate_count(free[k])) {
      choice[static_cast<size_t>(free[k++])] = 0;
    }
    if (k == free.size()) return;
  }
}

// Ops grouped by kind and tensor types (the same op in every layer), largest total time of
// the given placement first; only ops that run alone and have a candidate on another unit.
std::vector<std::vector<ir::NodeId>> op_classes(const opt::StackedGraph& stacks,
                                                const std::vector<int32_t>& choice) {
  std::map<std::string, std::vector<ir::NodeId>> by_key;
  for (size_t i = 0; i < stacks.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    const opt::Candidate& c = stacks.candidate(id, choice[i]);
    if (c.group >= 0 || stacks.candidate_count(id) < 2) continue;
    const ir::Node& n = stacks.graph().node(id);
    std::string key = n.kind_name;
    for (const ir::TensorType& t : n.input_types)
      key += " " + t.shape.str() + std::string(ir::dtype_name(t.dtype));
    for (const ir::TensorType& t : n.outputs)
      key += " -> " + t.shape.str() + std::string(ir::dtype_name(t.dtype));
    by_key[key].push_back(id);
  }
  std::vector<std::pair<int64_t, std::vector<ir::NodeId>>> ranked;
  for (auto& [key, ids] : by_key) {
    int64_t ps = 0;
    for (ir::NodeId id : ids)
      ps += stacks.candidate(id, choice[static_cast<size_t>(id)]).cost.time.count_ps();
    ranked.emplace_back(ps, std::move(ids));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::vector<ir::NodeId>> out;
  for (auto& r : ranked) out.push_back(std::move(r.second));
  return out;
}

// Every op of `ops` onto its first single-op candidate on `unit` (those without one stay).
std::vector<int32_t> moved(const opt::StackedGraph& stacks, std::vector<int32_t> choice,
                           const std::vector<ir::NodeId>& ops, hw::UnitType unit) {
  for (ir::NodeId id : ops) {
    for (int32_t k = 0; k < stacks.candidate_count(id); ++k) {
      const opt::Candidate& c = stacks.candidate(id, k);
      if (c.group < 0 && c.unit == unit) {
        choice[static_cast<size_t>(id)] = k;
        break;
      }
    }
  }
  return choice;
}

void improve(const opt::StackedGraph& stacks, Search& search) {
  const size_t units = stacks.system().unit_count();
  // Moves from each archive member in turn (the archive changes as moves land; members are
  // taken by makespan rank, so the fastest placements are improved first).
  for (size_t rank = 0; !search.exhausted() && rank < search.archive().size(); ++rank) {
    const std::vector<int32_t> from = search.archive()[rank].choice;
    for (const std::vector<ir::NodeId>& ops : op_classes(stacks, from)) {
      for (size_t u = 0; u < units && !search.exhausted(); ++u) {
        const std::vector<int32_t> next = moved(stacks, from, ops, static_cast<hw::UnitType>(u));
        if (next != from) search.offer(next, "move");
      }
      if (search.exhausted()) return;
    }
  }
}

// The sum selection for energy + P x time at each of `powers` (ascending), solved at as few of
// them as the answers allow: E + P x T is linear in P for every placement, so one that is
// optimal at two powers is optimal at every power between (its line lies on the lower envelope
// at both ends, which is concave); the powers between two equal answers take that answer
// without a solve. (Only a placement of the same summed time and energy could tie it there.)
std::vector<std::vector<int32_t>> energy_seeds(const opt::StackedGraph& stacks, const opt::Partition& part,
                                               const std::vector<double>& powers) {
  // Every power's placement in one pass (the DP's states shared: opt::place_at_powers); the
  // bisection below then takes the ones it would have solved. Should a power's sums not be
  // representable, each is solved alone in the bisection's order, which throws as it did.
  std::vector<opt::Placement> at;
  try {
    at = opt::place_at_powers(stacks, part, opt::Objective::energy, powers);
  } catch (const Error&) {
    at.clear();
  }
  std::vector<std::vector<int32_t>> out(powers.size());
  const auto solve = [&](size_t i) {
    if (!out[i].empty()) return;
    out[i] = at.empty() ? opt::place(stacks, part, opt::Objective::energy, true, powers[i]).choice : at[i].choice;
  };
  // Bisection over index ranges [lo, hi] whose ends are solved.
  std::vector<std::pair<size_t, size_t>> ranges;
  if (!powers.empty()) {
    solve(0);
    solve(powers.size() - 1);
    ranges.emplace_back(0, powers.size() - 1);
  }
  while (!ranges.empty()) {
    const auto [lo, hi] = ranges.back();
    ranges.pop_back();
    if (hi - lo < 2) continue;
    if (out[lo] == out[hi]) {
      for (size_t i = lo + 1; i < hi; ++i) out[i] = out[lo];
      continue;
    }
    const size_t mid = lo + (hi - lo) / 2;
    solve(mid);
    ranges.emplace_back(lo, mid);
    ranges.emplace_back(mid, hi);
  }
  return out;
}

}  // namespace

JointResult place_jointly(const opt::StackedGraph& stacks, const opt::Partition& part,
                          opt::Objective objective, const sched::SchedulingPolicy& policy,
                          const JointOptions& options) {
  Search search(stacks, part, policy, options);
  JointResult r;
  int32_t seed_solved = 0, seed_reused = 0;
  if (placements(stacks, kExhaustiveLimit) >= 0) {
    enumerate_all(stacks, search);
    r.exact = true;
  } else {
    const double static_w = hw::static_power_watts(stacks.system());
    const opt::Placement by_time = opt::place(stacks, part, opt::Objective::time);
    seed_solved = by_time.solved;
    seed_reused = by_time.reused;
    search.offer(by_time.choice, "sum:time");
    // Powers around the time seed's average: its dynamic energy over its makespan.
    const sched::ReportedCost base = search.archive().front().cost;
    const double average_w = base.makespan > Time::zero()
                                 ? base.dynamic_pj / static_cast<double>(base.makespan.count_ps())
                                 : 0.0;
    // 1e-9 of the average: energy first, then time among placements of equal energy.
    std::vector<double> powers{0.0, static_w, average_w * 1e-9};
    for (int k = -3; k <= 3; ++k) powers.push_back(average_w * std::pow(4.0, k));
    std::sort(powers.begin(), powers.end());
    powers.erase(std::unique(powers.begin(), powers.end()), powers.end());
    if (objective != opt::Objective::time || options.energy_seeds_for_time) {
      // JointOptions::energy_seeds_for_time says when the time objective does without them.
      for (const std::vector<int32_t>& choice : energy_seeds(stacks, part, powers)) {
        search.offer(choice, "sum:energy+P*time");
      }
    }
    if (objective == opt::Objective::edp) {
      // Only EDP needs the sum selection's Pareto fronts (every other seed keeps one
      // alternative per state); on batches that mix decodes and prefill chunks they hold
      // thousands of alternatives per state and cost most of a search (docs/PERFORMANCE.md).
      // The energy objective's ties, which this seed used to break (gpt2 prefill on gpu.yaml:
      // two placements of equal energy, 0.92 and 2.38 ms), are the near-zero power's above.
      opt::Placement by_edp = opt::place(stacks, part, opt::Objective::edp, true, static_w, options.edp_seed);
      r.edp_seed_gap_bound = by_edp.gap_bound;
      search.offer(std::move(by_edp.choice), "sum:edp");
    }
    search.offer(earliest_finish_placement(stacks, by_time.choice, 0.0), "heft:time");
    for (double w : {static_w, average_w}) {
      if (w > 0.0)
        search.offer(earliest_finish_placement(stacks, by_time.choice, w), "heft:energy+P*time");
    }
    improve(stacks, search);
  }
  const std::vector<Entry>& archive = search.archive();
  if (archive.empty())
    throw Error("the joint placement search found no placement that keeps its pinned ops");
  const opt::ObjectiveInfo& info = opt::objective_info(objective);
  const Entry* best = &archive.front();
  for (const Entry& e : archive) {
    if (info.score(e.cost.makespan, e.cost.energy_pj) <
        info.score(best->cost.makespan, best->cost.energy_pj))
      best = &e;
  }
  r.placement.choice = best->choice;
  r.placement.solved = seed_solved;  // the time seed's subgraph solves (0 when exhaustive)
  r.placement.reused = seed_reused;
  Search::Timed timed = search.time(best->choice);
  r.tasks = std::move(timed.tasks);
  r.schedule = std::move(timed.schedule);
  r.cost = timed.cost;
  r.origin = best->origin;
  r.score = info.score(r.cost.makespan, r.cost.energy_pj);
  if (!std::isfinite(r.score)) {  // EDP: each factor finite, their product not
    char text[200];
    std::snprintf(text, sizeof text,
                  "the %s of the best placement (makespan %g s, energy %g pJ) is not representable as a finite "
                  "double (check energy and power parameters)",
                  std::string(info.name).c_str(), r.cost.makespan.seconds(), r.cost.energy_pj);
    throw Error(text);
  }
  r.lower_bound = lower_bound(stacks).score(objective);
  r.gap = r.lower_bound > 0.0 ? r.score / r.lower_bound - 1.0 : 0.0;
  r.evaluations = search.evaluations();
  for (const Entry& e : archive)
    r.front.push_back(ParetoPoint{e.cost.makespan, e.cost.energy_pj, e.origin});
  return r;
}

}  // namespace lightcode::joint
