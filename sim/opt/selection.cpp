#include "sim/opt/selection.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>


namespace lightcode::opt {
namespace {

constexpr std::string_view kSumOfTimes = "the sum of op and edge times the selector minimises";

// One DP table entry's alternative: its cost so far and how to rebuild its choices.
struct Partial {
  Time time;
  double energy_pj;
  int32_t parent;  // index into the previous layer's entries (-1 at the start)
  int32_t choice;  // candidate of the variable this layer decided
};

double weight(Objective o, const Partial& a, double watts) {
  return objective_value(o, a.time, a.energy_pj, watts);
}

bool dominates(const Partial& a, const Partial& b) {
  return a.time <= b.time && a.energy_pj <= b.energy_pj;
}

// Keeps either the single best (time, energy objectives) or the Pareto front (edp).
void offer(std::vector<Partial>& alternatives, const Partial& p, Objective o, double watts) {
  if (o != Objective::edp) {
    if (alternatives.empty()) {
      alternatives.push_back(p);
    } else if (weight(o, p, watts) < weight(o, alternatives[0], watts)) {
      alternatives[0] = p;
    }
    return;
  }
  for (const Partial& a : alternatives) {
    if (dominates(a, p)) return;
  }
  alternatives.erase(std::remove_if(alternatives.begin(), alternatives.end(),
                                    [&](const Partial& a) { return dominates(p, a); }),
                     alternatives.end());
  alternatives.push_back(p);
}

}  // namespace

double objective_value(Objective o, Time time, double energy_pj, double watts) {
  const auto ps = static_cast<double>(time.count_ps());
  switch (o) {
    case Objective::time: return ps;
    case Objective::energy: return watts == 0.0 ? energy_pj : energy_pj + watts * ps;
    case Objective::edp: return ps * (watts == 0.0 ? energy_pj : energy_pj + watts * ps);
  }
  return 0.0;
}

Selection evaluate(const SelectionProblem& p, const std::vector<int>& choice) {
  Selection s;
  s.choice = choice;
  for (size_t v = 0; v < p.node_cost.size(); ++v) {
    const PairCost& c = p.node_cost[v][static_cast<size_t>(choice[v])];
    s.feasible = s.feasible && !c.forbidden;
    s.time = s.time.plus(c.time, kSumOfTimes);
    s.energy_pj += c.energy_pj;
  }
  for (const auto& e : p.edges) {
    const size_t to_n = p.node_cost[static_cast<size_t>(e.to)].size();
    const PairCost& c = e.cost[static_cast<size_t>(choice[static_cast<size_t>(e.from)]) * to_n +
                               static_cast<size_t>(choice[static_cast<size_t>(e.to)])];
    s.feasible = s.feasible && !c.forbidden;
    s.time = s.time.plus(c.time, kSumOfTimes);
    s.energy_pj += c.energy_pj;
  }
  return s;
}

Selection select_exact(const SelectionProblem& p, Objective objective, double watts) {
  const int n = static_cast<int>(p.node_cost.size());
  std::vector<std::vector<int>> in_edges(static_cast<size_t>(n));
  std::vector<int> last_use(static_cast<size_t>(n), -1);
  for (size_t k = 0; k < p.edges.size(); ++k) {
    const auto& e = p.edges[k];
    if (e.from >= e.to) throw std::invalid_argument("selection edges must go forward");
    in_edges[static_cast<size_t>(e.to)].push_back(static_cast<int>(k));
    last_use[static_cast<size_t>(e.from)] = std::max(last_use[static_cast<size_t>(e.from)], e.to);
  }
  auto choices = [&](int v) { return static_cast<int>(p.node_cost[static_cast<size_t>(v)].size()); };

  // A layer: states (the open variables' choices, in `open` order) and their alternatives.
  struct Layer {
    std::vector<int> open;                      // open variables after this step
    std::vector<std::vector<int8_t>> keys;      // one key per entry
    std::vector<std::vector<Partial>> entries;  // alternatives per key
  };
  std::vector<Layer> layers(static_cast<size_t>(n) + 1);
  layers[0].keys.push_back({});
  layers[0].entries.push_back({Partial{Time::zero(), 0.0, -1, -1}});
  // Flat index of every alternative in a layer, for back-pointers.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> flat(static_cast<size_t>(n) + 1);
  flat[0].push_back({0, 0});
  size_t peak = 1;

  for (int v = 0; v < n; ++v) {
    const Layer& prev = layers[static_cast<size_t>(v)];
    Layer& next = layers[static_cast<size_t>(v) + 1];
    // Open after v: previous open ones still read later, plus v if it branches and is read.
    for (int u : prev.open) {
      if (last_use[static_cast<size_t>(u)] > v) next.open.push_back(u);
    }
    const bool v_open = choices(v) > 1 && last_use[static_cast<size_t>(v)] > v;
    if (v_open) next.open.push_back(v);
    std::map<std::vector<int8_t>, size_t> index;
    std::vector<int> prev_slot(static_cast<size_t>(n), -1);
    for (size_t i = 0; i < prev.open.size(); ++i) prev_slot[static_cast<size_t>(prev.open[i])] = static_cast<int>(i);

    int32_t flat_index = 0;
    for (size_t k = 0; k < prev.keys.size(); ++k) {
      const auto& key = prev.keys[k];
      for (const Partial& alt : prev.entries[k]) {
        const int32_t parent = flat_index++;
        for (int c = 0; c < choices(v); ++c) {
          Partial q{alt.time, alt.energy_pj, parent, c};
          const PairCost& nc = p.node_cost[static_cast<size_t>(v)][static_cast<size_t>(c)];
          if (nc.forbidden) continue;
          q.time = q.time.plus(nc.time, kSumOfTimes);
          q.energy_pj += nc.energy_pj;
          bool forbidden = false;
          for (int ei : in_edges[static_cast<size_t>(v)]) {
            const auto& e = p.edges[static_cast<size_t>(ei)];
            const int slot = prev_slot[static_cast<size_t>(e.from)];
            const int fc = slot >= 0 ? key[static_cast<size_t>(slot)] : 0;  // single-candidate: 0
            const PairCost& ec = e.cost[static_cast<size_t>(fc) * static_cast<size_t>(choices(v)) +
                                        static_cast<size_t>(c)];
            if (ec.forbidden) {
              forbidden = true;
              break;
            }
            q.time = q.time.plus(ec.time, kSumOfTimes);
            q.energy_pj += ec.energy_pj;
          }
          if (forbidden) continue;
          std::vector<int8_t> next_key;
          next_key.reserve(next.open.size());
          for (int u : next.open) {
            next_key.push_back(u == v ? static_cast<int8_t>(c) : key[static_cast<size_t>(prev_slot[static_cast<size_t>(u)])]);
          }
          auto [it, inserted] = index.emplace(std::move(next_key), next.keys.size());
          if (inserted) {
            next.keys.push_back(it->first);
            next.entries.emplace_back();
          }
          offer(next.entries[it->second], q, objective, watts);
        }
      }
    }
    size_t alternatives = 0;
    for (size_t k = 0; k < next.entries.size(); ++k) {
      for (size_t a = 0; a < next.entries[k].size(); ++a) {
        flat[static_cast<size_t>(v) + 1].push_back({static_cast<int32_t>(k), static_cast<int32_t>(a)});
        ++alternatives;
      }
    }
    peak = std::max(peak, alternatives);
  }

  // Best final alternative, then walk the back-pointers.
  const Layer& last = layers[static_cast<size_t>(n)];
  int32_t best_flat = -1;
  double best = std::numeric_limits<double>::infinity();
  for (size_t f = 0; f < flat[static_cast<size_t>(n)].size(); ++f) {
    const auto [k, a] = flat[static_cast<size_t>(n)][f];
    const double w = weight(objective, last.entries[static_cast<size_t>(k)][static_cast<size_t>(a)], watts);
    if (w < best) {
      best = w;
      best_flat = static_cast<int32_t>(f);
    }
  }
  if (best_flat < 0) throw std::invalid_argument("the selection problem has no allowed assignment");
  Selection s;
  s.choice.assign(static_cast<size_t>(n), 0);
  int32_t at = best_flat;
  for (int v = n; v >= 1; --v) {
    const auto [k, a] = flat[static_cast<size_t>(v)][static_cast<size_t>(at)];
    const Partial& q = layers[static_cast<size_t>(v)].entries[static_cast<size_t>(k)][static_cast<size_t>(a)];
    if (v == n) {
      s.time = q.time;
      s.energy_pj = q.energy_pj;
    }
    s.choice[static_cast<size_t>(v) - 1] = q.choice;
    at = q.parent;
  }
  s.peak_states = peak;
  return s;
}

Selection select_brute_force(const SelectionProblem& p, Objective objective, double watts) {
  const size_t n = p.node_cost.size();
  std::vector<int> choice(n, 0);
  Selection best;
  double best_w = std::numeric_limits<double>::infinity();
  for (;;) {
    Selection s = evaluate(p, choice);
    const double w = objective_value(objective, s.time, s.energy_pj, watts);
    if (s.feasible && w < best_w) {
      best_w = w;
      best = s;
    }
    size_t v = 0;
    while (v < n && ++choice[v] == static_cast<int>(p.node_cost[v].size())) choice[v++] = 0;
    if (v == n) break;
  }
  return best;
}

}  // namespace lightcode::opt
