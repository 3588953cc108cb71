#include "sim/opt/selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

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

// What a DP step compares: the objective, its power, and a positive factor, scale / divisor,
// that every energy and the power are multiplied by (1 / 1 but when the plain values overflow:
// see select_exact). Applied as (x * scale) / divisor, so the factor itself never underflows.
struct Weighing {
  Objective o;
  double watts;
  double scale;
  double divisor;
};

double weight(const Weighing& w, const Partial& a) {
  return objective_value(w.o, a.time, a.energy_pj * w.scale / w.divisor, w.watts * w.scale / w.divisor);
}

std::string energy_overflow(double energy_pj) {
  char text[160];
  std::snprintf(text, sizeof text,
                "the sum of op and edge energies the selector minimises is not representable (%g pJ; check energy "
                "and power parameters)",
                energy_pj);
  return text;
}

bool dominates(const Partial& a, const Partial& b) {
  return a.time <= b.time && a.energy_pj <= b.energy_pj;
}

// Keeps either the single best (time, energy objectives) or the Pareto front (edp).
void offer(std::vector<Partial>& alternatives, const Partial& p, const Weighing& w) {
  if (w.o != Objective::edp) {
    if (alternatives.empty()) {
      alternatives.push_back(p);
    } else if (weight(w, p) < weight(w, alternatives[0])) {
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

// What offer() leaves after the offers in turn, found at once: the first offer of each
// Pareto-optimal (time, energy), in offer order. (A value no other weakly dominates is kept
// from its first offer on; any other is rejected or removed by one that does.)
void pareto_front(const std::vector<Partial>& offers, std::vector<Partial>& out, const Weighing& w) {
  for (const Partial& q : offers) {
    if (std::isnan(q.energy_pj)) {  // no order: offer them in turn
      for (const Partial& r : offers) offer(out, r, w);
      return;
    }
  }
  struct Point {
    int64_t ps;
    double energy_pj;
    uint32_t offer;
  };
  std::vector<Point> order(offers.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = Point{offers[i].time.count_ps(), offers[i].energy_pj, static_cast<uint32_t>(i)};
  }
  std::sort(order.begin(), order.end(), [](const Point& x, const Point& y) {
    if (x.ps != y.ps) return x.ps < y.ps;
    if (x.energy_pj != y.energy_pj) return x.energy_pj < y.energy_pj;
    return x.offer < y.offer;
  });
  // By time, then energy, then offer: one is kept when every one before it has more energy.
  std::vector<uint32_t> kept;
  double least = std::numeric_limits<double>::infinity();
  bool first = true;
  for (const Point& x : order) {
    if (first || x.energy_pj < least) {
      kept.push_back(x.offer);
      least = x.energy_pj;
      first = false;
    }
  }
  std::sort(kept.begin(), kept.end());
  out.clear();
  out.reserve(kept.size());
  for (uint32_t i : kept) out.push_back(offers[i]);
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

namespace {

// The DP at one scale of the weights; nullopt when every final alternative's weight is inf.
std::optional<Selection> select_scaled(const SelectionProblem& p, Objective objective, double watts, double scale,
                                       double divisor) {
  const Weighing weighing{objective, watts, scale, divisor};
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

    // A move from a state key depends on the key and the candidate only, not on the
    // alternative: its costs (in the order they are summed), whether it is allowed and the key
    // it leads to are found once per (key, candidate).
    const int nc = choices(v);
    struct Move {
      std::vector<const PairCost*> costs;  // node, then edges up to a forbidden one
      bool allowed = false;
      size_t next = 0;  // entry in `next`
    };
    std::vector<Move> moves(static_cast<size_t>(nc));
    std::vector<int8_t> next_key;
    const bool front = objective == Objective::edp;
    std::vector<std::vector<Partial>> offers;  // edp: every offer per next entry, in offer order
    int32_t flat_index = 0;
    for (size_t k = 0; k < prev.keys.size(); ++k) {
      const auto& key = prev.keys[k];
      for (int c = 0; c < nc; ++c) {
        Move& m = moves[static_cast<size_t>(c)];
        m.costs.clear();
        m.allowed = false;
        const PairCost& node = p.node_cost[static_cast<size_t>(v)][static_cast<size_t>(c)];
        if (node.forbidden) continue;
        m.costs.push_back(&node);
        bool forbidden = false;
        for (int ei : in_edges[static_cast<size_t>(v)]) {
          const auto& e = p.edges[static_cast<size_t>(ei)];
          const int slot = prev_slot[static_cast<size_t>(e.from)];
          const int fc = slot >= 0 ? key[static_cast<size_t>(slot)] : 0;  // single-candidate: 0
          const PairCost& ec = e.cost[static_cast<size_t>(fc) * static_cast<size_t>(nc) + static_cast<size_t>(c)];
          if (ec.forbidden) {
            forbidden = true;
            break;
          }
          m.costs.push_back(&ec);
        }
        if (forbidden) {
          // The sums before the forbidden edge are still taken: they throw as they did.
          m.costs.push_back(nullptr);
          continue;
        }
        m.allowed = true;
        next_key.clear();
        for (int u : next.open) {
          next_key.push_back(u == v ? static_cast<int8_t>(c) : key[static_cast<size_t>(prev_slot[static_cast<size_t>(u)])]);
        }
        auto [it, inserted] = index.emplace(next_key, next.keys.size());
        if (inserted) {
          next.keys.push_back(it->first);
          next.entries.emplace_back();
          if (front) offers.emplace_back();
        }
        m.next = it->second;
      }
      for (const Partial& alt : prev.entries[k]) {
        const int32_t parent = flat_index++;
        for (int c = 0; c < nc; ++c) {
          const Move& m = moves[static_cast<size_t>(c)];
          if (m.costs.empty()) continue;  // forbidden node
          Partial q{alt.time, alt.energy_pj, parent, c};
          for (const PairCost* pc : m.costs) {
            if (pc == nullptr) break;
            q.time = q.time.plus(pc->time, kSumOfTimes);
            q.energy_pj += pc->energy_pj;
          }
          if (!std::isfinite(q.energy_pj)) throw SelectionOverflow(v, c, energy_overflow(q.energy_pj));
          if (!m.allowed) continue;
          if (front) {
            offers[m.next].push_back(q);
          } else {
            offer(next.entries[m.next], q, weighing);
          }
        }
      }
    }
    for (size_t e = 0; front && e < offers.size(); ++e) pareto_front(offers[e], next.entries[e], weighing);
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
    const double w = weight(weighing, last.entries[static_cast<size_t>(k)][static_cast<size_t>(a)]);
    if (w < best) {
      best = w;
      best_flat = static_cast<int32_t>(f);
    }
  }
  if (best_flat < 0 && !flat[static_cast<size_t>(n)].empty()) return std::nullopt;
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

}  // namespace

Selection select_exact(const SelectionProblem& p, Objective objective, double watts) {
  if (std::optional<Selection> s = select_scaled(p, objective, watts, 1.0, 1.0)) return std::move(*s);
  // Every weight overflowed: energies near the double's range, or a huge power (the joint
  // search derives its powers from the energies). The weights times 2^-64 / max(watts, 1), a
  // positive factor, keep their order and stay finite: (e + W t) 2^-64 / max(W, 1) <= 1.8e308
  // x 2^-64 + 2^63 x 2^-64 for energy, and t <= 2^63 ps times that for EDP.
  const double divisor = std::max(watts, 1.0);
  if (std::optional<Selection> s = select_scaled(p, objective, watts, std::ldexp(1.0, -64), divisor)) {
    return std::move(*s);
  }
  std::string text = "the " + std::string(objective_name(objective)) + " objective is not representable for any placement (";
  char power[32];
  std::snprintf(power, sizeof power, "%g", watts);
  text += watts > 0.0 ? "energy + " + std::string(power) + " W x time" : std::string("the energy x time");
  throw Error(text + " exceeds a double; check energy and power parameters)");
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
