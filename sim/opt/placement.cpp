#include "sim/opt/placement.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "sim/core/error.hpp"

namespace lightcode::opt {
namespace {

PairCost pair(const hw::Cost& c) { return PairCost{c.time, c.energy.picojoules()}; }

// "node 12 'h.0.attn' (dense) on 'gpu'": an op's candidate, for errors about its cost.
std::string describe(const StackedGraph& stacks, ir::NodeId id, int candidate) {
  const ir::Node& n = stacks.graph().node(id);
  return "node " + std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ") on '" +
         stacks.system().unit(stacks.candidate(id, candidate).unit).name + "'";
}

void add(PairCost& a, const hw::Cost& c, const StackedGraph& stacks, ir::NodeId id, int candidate) {
  a.time = a.time.plus(c.time, "an op's time plus its input transfers");
  a.energy_pj = check_energy(a.energy_pj + c.energy.picojoules(),
                             [&] { return describe(stacks, id, candidate) + ": its energy plus its input transfers'"; });
}

// Edge `position` of `id` from `from`, for the producer's candidate a and the consumer's b:
// nothing moves inside one chosen fused kernel, and a group chosen on one side of an edge
// between two of its members but not on the other is not allowed.
PairCost edge_pair(const StackedGraph& stacks, ir::NodeId from, int a, ir::NodeId id, int position, int b) {
  const Candidate& ca = stacks.candidate(from, a);
  const Candidate& cb = stacks.candidate(id, b);
  if (ca.group >= 0 && ca.group == cb.group) return PairCost{};
  if ((ca.group >= 0 && stacks.group(ca.group).has(id)) || (cb.group >= 0 && stacks.group(cb.group).has(from))) {
    PairCost forbidden;
    forbidden.forbidden = true;
    return forbidden;
  }
  if (stacks.shared_read(cb, id, position)) return PairCost{};
  return pair(stacks.edge_cost(id, position, ca.unit, cb.unit));
}

// All members of a fused group choose it or none does: a constraint between each member and
// the next (members need not be adjacent: a horizontal group's GEMMs only share an input).
void add_group_constraints(const StackedGraph& stacks, const Partition& part, int32_t subgraph,
                           const std::vector<ir::NodeId>& members, const std::vector<int32_t>& local,
                           SelectionProblem& p) {
  auto local_of = [&](ir::NodeId id) {
    return part.subgraph_of[static_cast<size_t>(id)] == subgraph ? local[static_cast<size_t>(id)] : -1;
  };
  std::vector<int32_t> seen;
  for (ir::NodeId id : members) {
    for (int c = 0; c < stacks.candidate_count(id); ++c) {
      const int32_t g = stacks.candidate(id, c).group;
      if (g < 0 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
      seen.push_back(g);
      const std::vector<ir::NodeId>& gm = stacks.group(g).kernel.members;
      for (size_t i = 0; i + 1 < gm.size(); ++i) {
        const int32_t u = local_of(gm[i]), w = local_of(gm[i + 1]);
        if (u < 0 || w < 0) {  // a partition that cuts the group (not partition_for(stacks)): not a choice
          for (ir::NodeId m : gm) {
            const int32_t v = local_of(m);
            for (int k = 0; v >= 0 && k < stacks.candidate_count(m); ++k) {
              if (stacks.candidate(m, k).group == g) p.node_cost[static_cast<size_t>(v)][static_cast<size_t>(k)].forbidden = true;
            }
          }
          break;
        }
        SelectionProblem::Edge e;
        e.from = u;
        e.to = w;
        const int fu = stacks.candidate_count(gm[i]), fw = stacks.candidate_count(gm[i + 1]);
        e.cost.resize(static_cast<size_t>(fu * fw));
        for (int a = 0; a < fu; ++a) {
          for (int b = 0; b < fw; ++b) {
            e.cost[static_cast<size_t>(a * fw + b)].forbidden =
                (stacks.candidate(gm[i], a).group == g) != (stacks.candidate(gm[i + 1], b).group == g);
          }
        }
        p.edges.push_back(std::move(e));
      }
    }
  }
}

// The selection's statistics into the placement's.
std::vector<int> record(Selection&& s, Placement& out) {
  out.peak_states = std::max(out.peak_states, s.peak_states);
  out.thinned += s.thinned_steps > 0 ? 1 : 0;
  out.gap_bound = std::max(out.gap_bound, s.gap_bound);
  return std::move(s.choice);
}

// Runs `select` (a selection of subgraph `subgraph`'s problem) naming the subgraph when its
// sums cannot be represented.
template <class Select>
auto solve_naming(const Select& select, const StackedGraph& stacks, const std::vector<ir::NodeId>& members,
                  int32_t subgraph) {
  const ir::Graph& g = stacks.graph();
  const auto where = [&] {  // built only for a message
    return "subgraph " + std::to_string(subgraph) + " (from node '" + g.node(members.front()).name + "')";
  };
  try {
    return select();
  } catch (const SelectionOverflow& e) {
    const ir::NodeId id = members[static_cast<size_t>(e.variable)];
    throw Error(SourcePlace{g.source(), 0, 0, ""}, where() + ": " + describe(stacks, id, e.candidate) + ": " + e.what());
  } catch (const Error& e) {
    throw Error(SourcePlace{g.source(), 0, 0, ""}, where() + ": " + e.what());
  }
}

std::vector<int> solve(const SelectionProblem& p, Objective objective, double watts, const SelectionBound& bound,
                       const StackedGraph& stacks, const std::vector<ir::NodeId>& members, int32_t subgraph,
                       Placement& out) {
  return record(solve_naming([&] { return select_bounded(p, objective, watts, bound); }, stacks, members, subgraph),
                out);
}

// The problem's bytes: equal keys <=> equal problems.
std::string key_of(const SelectionProblem& p) {
  // Sized first: one allocation per key (the appends were a tenth of the pipeline's time).
  constexpr size_t kCost = sizeof(int64_t) + sizeof(double) + sizeof(bool);
  size_t size = 0;
  for (const auto& costs : p.node_cost) size += sizeof(uint32_t) + costs.size() * kCost;
  for (const auto& e : p.edges) size += sizeof e.from + sizeof e.to + e.cost.size() * kCost;
  std::string k;
  k.reserve(size);
  auto put = [&](const void* data, size_t n) { k.append(static_cast<const char*>(data), n); };
  auto put_cost = [&](const PairCost& c) {
    const int64_t ps = c.time.count_ps();
    put(&ps, sizeof ps);
    put(&c.energy_pj, sizeof c.energy_pj);
    put(&c.forbidden, sizeof c.forbidden);
  };
  for (const auto& costs : p.node_cost) {
    const auto count = static_cast<uint32_t>(costs.size());
    put(&count, sizeof count);
    for (const PairCost& c : costs) put_cost(c);
  }
  for (const auto& e : p.edges) {
    put(&e.from, sizeof e.from);
    put(&e.to, sizeof e.to);
    for (const PairCost& c : e.cost) put_cost(c);
  }
  return k;
}

// Subgraph s's problem into `p`, its variables into `members` (none: nothing to choose); the
// producers outside it placed as `choice` says. `local` maps a node to its variable.
void build_problem(const StackedGraph& stacks, const Partition& part, int32_t s, const std::vector<int32_t>& choice,
                   std::vector<ir::NodeId>& members, std::vector<int32_t>& local, SelectionProblem& p) {
  const ir::Graph& g = stacks.graph();
  const bool start_tasks = stacks.system().profile().start_tasks();
  // The subgraph's variables: its members but a cut op it repeats (chosen where it first
  // ran: the original keeps the first choice), which is a fixed producer here.
  members.clear();
  p = SelectionProblem{};
  for (ir::NodeId id : part.members[static_cast<size_t>(s)]) {
    if (part.subgraph_of[static_cast<size_t>(id)] == s) members.push_back(id);
  }
  if (members.empty()) return;
  p.node_cost.resize(members.size());
  for (size_t v = 0; v < members.size(); ++v) local[static_cast<size_t>(members[v])] = static_cast<int32_t>(v);
  for (size_t v = 0; v < members.size(); ++v) {
    const ir::NodeId id = members[v];
    const ir::Node& node = g.node(id);
    const int nc = stacks.candidate_count(id);
    auto& costs = p.node_cost[v];
    costs.resize(static_cast<size_t>(nc));
    for (int c = 0; c < nc; ++c) costs[static_cast<size_t>(c)] = pair(stacks.candidate(id, c).cost);
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const ir::NodeId from = node.inputs[k].node;
      const int32_t lf = part.subgraph_of[static_cast<size_t>(from)] == s ? local[static_cast<size_t>(from)] : -1;
      if (lf >= 0) {
        SelectionProblem::Edge e;
        e.from = lf;
        e.to = static_cast<int>(v);
        const int fc = stacks.candidate_count(from);
        e.cost.resize(static_cast<size_t>(fc * nc));
        for (int a = 0; a < fc; ++a) {
          for (int b = 0; b < nc; ++b) {
            e.cost[static_cast<size_t>(a * nc + b)] = edge_pair(stacks, from, a, id, static_cast<int>(k), b);
          }
        }
        p.edges.push_back(std::move(e));
        continue;
      }
      // From outside this subgraph: the producer's placement is already fixed. With start
      // tasks (the lightcode profile) an edge that crosses an articulation comes from `start`, free.
      if (start_tasks && part.crosses(id, static_cast<int>(k))) continue;
      const hw::UnitType from_unit = stacks.candidate(from, choice[static_cast<size_t>(from)]).unit;
      for (int b = 0; b < nc; ++b) {
        const Candidate& cb = stacks.candidate(id, b);
        if (stacks.shared_read(cb, id, static_cast<int>(k))) continue;
        add(costs[static_cast<size_t>(b)], stacks.edge_cost(id, static_cast<int>(k), from_unit, cb.unit), stacks, id, b);
      }
    }
  }
  add_group_constraints(stacks, part, s, members, local, p);
}

}  // namespace

std::vector<SelectionProblem> subgraph_problems(const StackedGraph& stacks, const Partition& part,
                                                const std::vector<int32_t>& choice) {
  std::vector<int32_t> local(stacks.graph().size(), -1);
  std::vector<ir::NodeId> members;
  std::vector<SelectionProblem> out;
  for (int32_t s = 0; s < part.count; ++s) {
    SelectionProblem p;
    build_problem(stacks, part, s, choice, members, local, p);
    if (!members.empty()) out.push_back(std::move(p));
  }
  return out;
}

Placement place(const StackedGraph& stacks, const Partition& part, Objective objective,
                bool use_cache, double watts, const SelectionBound& bound) {
  const ir::Graph& g = stacks.graph();
  Placement out;
  out.choice.assign(g.size(), 0);
  std::vector<int32_t> local(g.size(), -1);  // variable index within the current subgraph
  std::unordered_map<std::string, std::vector<int>> cache;

  std::vector<ir::NodeId> members;
  SelectionProblem p;
  for (int32_t s = 0; s < part.count; ++s) {
    build_problem(stacks, part, s, out.choice, members, local, p);
    if (members.empty()) continue;
    std::vector<int> choice;
    if (use_cache) {
      std::string key = key_of(p);
      auto it = cache.find(key);
      if (it != cache.end()) {
        choice = it->second;
        ++out.reused;
      } else {
        choice = solve(p, objective, watts, bound, stacks, members, s, out);
        ++out.solved;
        cache.emplace(std::move(key), choice);
      }
    } else {
      choice = solve(p, objective, watts, bound, stacks, members, s, out);
      ++out.solved;
    }
    for (size_t v = 0; v < members.size(); ++v) out.choice[static_cast<size_t>(members[v])] = choice[v];
  }
  return out;
}

std::vector<Placement> place_at_powers(const StackedGraph& stacks, const Partition& part, Objective objective,
                                       const std::vector<double>& watts) {
  const ir::Graph& g = stacks.graph();
  const size_t lanes = watts.size();
  std::vector<Placement> out(lanes);
  for (Placement& o : out) o.choice.assign(g.size(), 0);
  std::vector<int32_t> local(g.size(), -1);
  std::vector<std::unordered_map<std::string, std::vector<int>>> cache(lanes);  // as place()'s, per power
  std::vector<ir::NodeId> members;
  std::vector<SelectionProblem> problem(lanes);
  std::vector<std::string> key(lanes);
  for (int32_t s = 0; s < part.count; ++s) {
    // Each power's problem (the producers outside placed as that power's earlier subgraphs
    // chose), and the powers that must solve it.
    std::vector<size_t> unsolved;
    std::vector<std::vector<int>> choice(lanes);
    for (size_t l = 0; l < lanes; ++l) {
      build_problem(stacks, part, s, out[l].choice, members, local, problem[l]);
      if (members.empty()) break;
      key[l] = key_of(problem[l]);
      auto it = cache[l].find(key[l]);
      if (it != cache[l].end()) {
        choice[l] = it->second;
        ++out[l].reused;
      } else {
        unsolved.push_back(l);
      }
    }
    if (members.empty()) continue;
    // Powers with equal problems are solved together.
    std::vector<bool> done(lanes, false);
    for (size_t i = 0; i < unsolved.size(); ++i) {
      const size_t l = unsolved[i];
      if (done[l]) continue;
      std::vector<size_t> same;
      std::vector<double> at;
      for (size_t j = i; j < unsolved.size(); ++j) {
        const size_t m = unsolved[j];
        if (!done[m] && key[m] == key[l]) {
          same.push_back(m);
          at.push_back(watts[m]);
          done[m] = true;
        }
      }
      std::vector<Selection> solved =
          solve_naming([&] { return select_exact_many(problem[l], objective, at); }, stacks, members, s);
      for (size_t k = 0; k < same.size(); ++k) {
        const size_t m = same[k];
        choice[m] = record(std::move(solved[k]), out[m]);
        ++out[m].solved;
        cache[m].emplace(key[m], choice[m]);
      }
    }
    for (size_t l = 0; l < lanes; ++l) {
      for (size_t v = 0; v < members.size(); ++v) out[l].choice[static_cast<size_t>(members[v])] = choice[l][v];
    }
  }
  return out;
}

}  // namespace lightcode::opt
