#include "sim/opt/selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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
  // The least time and the least energy of the partial assignments this one stands for
  // (itself and those whose alternatives were dropped for it): time and energy_pj when nothing
  // was thinned. The lower bound on the exact optimum is taken over these (select_thinned).
  Time time_lo;
  double energy_lo_pj;
  int32_t parent;  // index into the previous layer's alternatives (-1 at the start)
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

double weight(const Weighing& w, Time time, double energy_pj) {
  // Unscaled (scale = divisor = 1, all but overflowing problems): x * 1 / 1 is x, so the
  // products are skipped, bit for bit the same weight.
  if (w.scale == 1.0 && w.divisor == 1.0) return objective_value(w.o, time, energy_pj, w.watts);
  return objective_value(w.o, time, energy_pj * w.scale / w.divisor, w.watts * w.scale / w.divisor);
}
double weight(const Weighing& w, const Partial& a) { return weight(w, a.time, a.energy_pj); }
double weight_lo(const Weighing& w, const Partial& a) {
  return objective_value(w.o, a.time_lo, a.energy_lo_pj * w.scale / w.divisor, w.watts * w.scale / w.divisor);
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

// The lower corner of two partials' lower corners, into `a` (b was dropped for a).
void absorb(Time& time_lo, double& energy_lo_pj, Time b_time_lo, double b_energy_lo_pj) {
  time_lo = std::min(time_lo, b_time_lo);
  energy_lo_pj = std::min(energy_lo_pj, b_energy_lo_pj);
}

// What offer() leaves after the offers in turn, found at once: the first offer of each
// Pareto-optimal (time, energy), in offer order. (A value no other weakly dominates is kept
// from its first offer on; any other is rejected or removed by one that does.) A dropped
// offer's lower corner goes to the one kept before it in (time, energy) order, which
// dominates it.
// Thinning (thin.step > 0, fronts of more than thin.above), in that order (time up, energy
// down): an alternative whose energy is within `energy_step` of the last one kept is dropped
// for it (which takes no more time); one within `time_step` of the time of the first
// alternative this kept one replaced, with less energy, replaces it. Returns whether thinning
// dropped any.
bool pareto_front(const std::vector<Partial>& offers, std::vector<Partial>& out, const Weighing& w,
                  const FrontThinning& thin, double energy_step, int64_t time_step) {
  for (const Partial& q : offers) {
    if (std::isnan(q.energy_pj)) {  // no order: offer them in turn
      for (const Partial& r : offers) offer(out, r, w);
      return false;
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
  struct Kept {
    uint32_t offer;
    Time time_lo;
    double energy_lo_pj;
  };
  std::vector<Kept> kept;
  double least = std::numeric_limits<double>::infinity();
  bool first = true;
  for (const Point& x : order) {
    const Partial& q = offers[x.offer];
    if (first || x.energy_pj < least) {
      kept.push_back(Kept{x.offer, q.time_lo, q.energy_lo_pj});
      least = x.energy_pj;
      first = false;
    } else {
      absorb(kept.back().time_lo, kept.back().energy_lo_pj, q.time_lo, q.energy_lo_pj);
    }
  }
  bool thinned = false;
  if (thin.step > 0.0 && kept.size() > thin.above) {
    size_t anchor = 0;
    int64_t run_start = offers[kept[0].offer].time.count_ps();
    for (size_t i = 1; i < kept.size(); ++i) {
      Kept& a = kept[anchor];
      const Kept q = kept[i];
      const Partial& pa = offers[a.offer];
      const Partial& pq = offers[q.offer];
      if (pa.energy_pj <= pq.energy_pj + energy_step) {
        absorb(a.time_lo, a.energy_lo_pj, q.time_lo, q.energy_lo_pj);
      } else if (pq.time.count_ps() - run_start <= time_step) {
        absorb(a.time_lo, a.energy_lo_pj, q.time_lo, q.energy_lo_pj);
        a.offer = q.offer;
      } else {
        kept[++anchor] = q;
        run_start = pq.time.count_ps();
        continue;
      }
      thinned = true;
    }
    kept.resize(anchor + 1);
  }
  std::sort(kept.begin(), kept.end(), [](const Kept& x, const Kept& y) { return x.offer < y.offer; });
  out.clear();
  out.reserve(kept.size());
  for (const Kept& k : kept) {
    out.push_back(offers[k.offer]);
    out.back().time_lo = k.time_lo;
    out.back().energy_lo_pj = k.energy_lo_pj;
  }
  return thinned;
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

// A DP layer's state keys (each open variable's choice, `width` bytes) stored end to end, and
// their index: dense ids in insertion order, so the layer's entries come out in the order the
// moves first reach them (which is what makes ties resolve alike however keys are stored).
// Open addressing on a hash of the bytes: a step looks up every (state, candidate) move, and a
// node-based map allocated for each.
class KeyTable {
 public:
  explicit KeyTable(size_t width) : width_(width), slots_(16, -1) {}
  size_t size() const { return count_; }
  const int8_t* key(size_t id) const { return data_.data() + id * width_; }
  // The id of `key` (width_ bytes), added when new; `added` says which.
  size_t find_or_add(const int8_t* key, bool& added) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    size_t at = hash(key) & (slots_.size() - 1);
    for (;; at = (at + 1) & (slots_.size() - 1)) {
      const int32_t id = slots_[at];
      if (id < 0) break;
      if (same(key, this->key(static_cast<size_t>(id)))) {
        added = false;
        return static_cast<size_t>(id);
      }
    }
    slots_[at] = static_cast<int32_t>(count_);
    data_.resize(data_.size() + width_);
    for (size_t i = 0; i < width_; ++i) data_[count_ * width_ + i] = key[i];
    added = true;
    return count_++;
  }
  void release() {  // a layer's keys are not needed once the next layer is built
    std::vector<int8_t>().swap(data_);
    std::vector<int32_t>().swap(slots_);
  }

 private:
  bool same(const int8_t* a, const int8_t* b) const {  // keys are a few bytes: no library call
    for (size_t i = 0; i < width_; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  size_t hash(const int8_t* key) const {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (size_t i = 0; i < width_; ++i) h = (h ^ static_cast<uint8_t>(key[i])) * 1099511628211ULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
  void grow() {
    std::vector<int32_t> bigger(slots_.size() * 2, -1);
    for (size_t id = 0; id < count_; ++id) {
      size_t at = hash(key(id)) & (bigger.size() - 1);
      while (bigger[at] >= 0) at = (at + 1) & (bigger.size() - 1);
      bigger[at] = static_cast<int32_t>(id);
    }
    slots_.swap(bigger);
  }
  size_t width_;
  size_t count_ = 0;
  std::vector<int8_t> data_;
  std::vector<int32_t> slots_;
};

template <class Layers>
std::optional<Selection> best_of(const Layers& layers, size_t lane, size_t lanes, const Weighing& weighing,
                                 int thinned_steps, size_t peak);

// The DP at one scale of the weights, for one power per lane: each lane is the DP at its power
// (time and energy: one alternative per state and lane; edp takes one lane), the states and
// their moves shared. A lane's answer is nullopt when every final alternative's weight is inf.
std::vector<std::optional<Selection>> select_scaled(const SelectionProblem& p, Objective objective,
                                                    const std::vector<double>& watts, double scale, double divisor,
                                                    const FrontThinning& thin) {
  const bool front = objective == Objective::edp;
  const size_t lanes = watts.size();
  if (lanes == 0 || (front && lanes != 1)) throw std::invalid_argument("select_scaled: one lane for edp, one or more else");
  std::vector<Weighing> weighing;
  for (double w : watts) weighing.push_back(Weighing{objective, w, scale, divisor});
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
    KeyTable keys{0};                           // one key per entry
    // Alternatives, key by key: key k's are alts[first[k] .. first[k + 1]). Every key has at
    // least one (a key is made by a move that offers it every alternative of its source).
    std::vector<Partial> alts;
    std::vector<uint32_t> first{0};
    // Once the next layer is built only the way back is needed: each alternative's parent and
    // choice (a sixth of its size; a batch's layers hold hundreds of states per power).
    struct Back {
      int32_t parent;
      int32_t choice;
    };
    std::vector<Back> back;
    void keep_only_back() {
      back.reserve(alts.size());
      for (const Partial& a : alts) back.push_back(Back{a.parent, a.choice});
      std::vector<Partial>().swap(alts);
      std::vector<uint32_t>().swap(first);
    }
  };
  std::vector<Layer> layers(static_cast<size_t>(n) + 1);
  bool added = false;
  const int8_t no_key = 0;  // the first layer's one key has no bytes
  layers[0].keys.find_or_add(&no_key, added);
  layers[0].alts.assign(lanes, Partial{Time::zero(), 0.0, Time::zero(), 0.0, -1, -1});
  layers[0].first.push_back(static_cast<uint32_t>(lanes));
  std::vector<Partial> single;  // time, energy: each next key's one alternative per lane
  std::vector<double> single_weight;  // and its weight
  std::vector<Partial> kept;    // edp: one key's front
  // Per step, kept across steps for their storage: each open variable's slot in the previous
  // layer's keys (-1: not open), the moves of each candidate, the key a move leads to.
  std::vector<int> prev_slot(static_cast<size_t>(n), -1);
  struct Move {
    std::vector<const PairCost*> costs;  // node, then edges up to a forbidden one
    bool allowed = false;
    size_t next = 0;  // entry in `next`
  };
  std::vector<Move> moves;
  std::vector<int8_t> next_key;
  size_t peak = 1;
  int thinned_steps = 0;
  // Thinning's steps: thin.step times a lower bound on any assignment's energy and time (the
  // sums of each variable's least node cost), relative to the answer's scale rather than to
  // the partial sums' (small at the first steps).
  double least_energy = 0.0;
  double least_ps = 0.0;
  for (const auto& costs : p.node_cost) {
    double energy = std::numeric_limits<double>::infinity(), ps = energy;
    for (const PairCost& c : costs) {
      energy = std::min(energy, c.energy_pj);
      ps = std::min(ps, static_cast<double>(c.time.count_ps()));
    }
    least_energy += std::max(energy, 0.0);
    least_ps += std::max(ps, 0.0);
  }
  const double energy_step = thin.step * least_energy;
  const auto time_step = static_cast<int64_t>(std::min(thin.step * least_ps, 9.0e18));

  for (int v = 0; v < n; ++v) {
    Layer& prev = layers[static_cast<size_t>(v)];
    Layer& next = layers[static_cast<size_t>(v) + 1];
    // Open after v: previous open ones still read later, plus v if it branches and is read.
    for (int u : prev.open) {
      if (last_use[static_cast<size_t>(u)] > v) next.open.push_back(u);
    }
    const bool v_open = choices(v) > 1 && last_use[static_cast<size_t>(v)] > v;
    if (v_open) next.open.push_back(v);
    next.keys = KeyTable(next.open.size());
    for (size_t i = 0; i < prev.open.size(); ++i) prev_slot[static_cast<size_t>(prev.open[i])] = static_cast<int>(i);

    // A move from a state key depends on the key and the candidate only, not on the
    // alternative: its costs (in the order they are summed), whether it is allowed and the key
    // it leads to are found once per (key, candidate).
    const int nc = choices(v);
    if (moves.size() < static_cast<size_t>(nc)) moves.resize(static_cast<size_t>(nc));
    std::vector<std::vector<Partial>> offers;  // edp: every offer per next entry, in offer order
    single.clear();
    single_weight.clear();
    single.reserve(prev.alts.size());
    for (size_t k = 0; k < prev.keys.size(); ++k) {
      const int8_t* key = prev.keys.key(k);
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
        m.next = next.keys.find_or_add(next_key.data(), added);
        if (added) {
          if (front) {
            offers.emplace_back();
          } else {
            single.resize(single.size() + lanes);
            single_weight.resize(single.size());
            for (size_t l = single.size() - lanes; l < single.size(); ++l) single[l].parent = -1;  // none yet
          }
        }
      }
      if (front) {
        for (uint32_t at = prev.first[k]; at < prev.first[k + 1]; ++at) {
          const Partial& alt = prev.alts[at];
          for (int c = 0; c < nc; ++c) {
            const Move& m = moves[static_cast<size_t>(c)];
            if (m.costs.empty()) continue;  // forbidden node
            Partial q{alt.time, alt.energy_pj, alt.time_lo, alt.energy_lo_pj, static_cast<int32_t>(at), c};
            for (const PairCost* pc : m.costs) {
              if (pc == nullptr) break;
              q.time = q.time.plus(pc->time, kSumOfTimes);
              q.energy_pj += pc->energy_pj;
              q.time_lo = q.time_lo.plus(pc->time, kSumOfTimes);
              q.energy_lo_pj += pc->energy_pj;
            }
            if (!std::isfinite(q.energy_pj)) throw SelectionOverflow(v, c, energy_overflow(q.energy_pj));
            if (m.allowed) offers[m.next].push_back(q);
          }
        }
        continue;
      }
      // One alternative per lane: candidate by candidate, each lane in turn (a lane's offers
      // come in the order of one lane alone: key, then candidate). Nothing is thinned, so the
      // lower corners (time_lo, energy_lo_pj) are not needed.
      const uint32_t base = prev.first[k];
      for (int c = 0; c < nc; ++c) {
        const Move& m = moves[static_cast<size_t>(c)];
        if (m.costs.empty()) continue;  // forbidden node
        for (size_t lane = 0; lane < lanes; ++lane) {
          const Partial& alt = prev.alts[base + lane];
          // Summed in locals and stored field by field: a whole Partial built on the stack and
          // copied stalled on store forwarding (a third of the DP's time on batch graphs).
          Time time = alt.time;
          double energy_pj = alt.energy_pj;
          for (const PairCost* pc : m.costs) {
            if (pc == nullptr) break;
            time = time.plus(pc->time, kSumOfTimes);
            energy_pj += pc->energy_pj;
          }
          if (!std::isfinite(energy_pj)) throw SelectionOverflow(v, c, energy_overflow(energy_pj));
          if (!m.allowed) continue;
          const size_t to = m.next * lanes + lane;
          const double w = weight(weighing[lane], time, energy_pj);
          Partial& b = single[to];
          if (b.parent < 0 || w < single_weight[to]) {
            b.time = time;
            b.energy_pj = energy_pj;
            b.parent = static_cast<int32_t>(base + lane);
            b.choice = c;
            single_weight[to] = w;
          }
        }
      }
    }
    prev.keys.release();
    for (const int u : prev.open) prev_slot[static_cast<size_t>(u)] = -1;
    bool thinned = false;
    if (front) {
      for (const std::vector<Partial>& o : offers) {
        thinned = pareto_front(o, kept, weighing[0], thin, energy_step, time_step) || thinned;
        next.alts.insert(next.alts.end(), kept.begin(), kept.end());
        next.first.push_back(static_cast<uint32_t>(next.alts.size()));
      }
    } else {
      next.alts = std::move(single);
      single = std::vector<Partial>();
      for (size_t k = lanes; k <= next.alts.size(); k += lanes) next.first.push_back(static_cast<uint32_t>(k));
    }
    thinned_steps += thinned ? 1 : 0;
    const size_t alternatives = next.alts.size() / lanes;
    peak = std::max(peak, alternatives);
    prev.keep_only_back();
  }

  // Each lane: its best final alternative, then walk the back-pointers.
  const Layer& last = layers[static_cast<size_t>(n)];
  if (last.alts.empty()) throw std::invalid_argument("the selection problem has no allowed assignment");
  std::vector<std::optional<Selection>> answers(lanes);
  for (size_t lane = 0; lane < lanes; ++lane) {
    answers[lane] = best_of(layers, lane, lanes, weighing[lane], thinned_steps, peak);
  }
  return answers;
}

// The best final alternative of `lane` (alternatives lane, lane + lanes, ...) and its
// assignment, walking the back-pointers; nullopt when every one's weight is inf.
template <class Layers>
std::optional<Selection> best_of(const Layers& layers, size_t lane, size_t lanes, const Weighing& weighing,
                                 int thinned_steps, size_t peak) {
  const int n = static_cast<int>(layers.size()) - 1;
  const auto& last = layers[static_cast<size_t>(n)];
  int32_t best_flat = -1;
  double best = std::numeric_limits<double>::infinity();
  double lowest = std::numeric_limits<double>::infinity();  // no assignment weighs less
  for (size_t f = lane; f < last.alts.size(); f += lanes) {
    const Partial& q = last.alts[f];
    const double w = weight(weighing, q);
    if (w < best) {
      best = w;
      best_flat = static_cast<int32_t>(f);
    }
    lowest = std::min(lowest, thinned_steps > 0 ? weight_lo(weighing, q) : w);
  }
  if (best_flat < 0) return std::nullopt;
  Selection s;
  s.choice.assign(static_cast<size_t>(n), 0);
  int32_t at = best_flat;
  s.time = last.alts[static_cast<size_t>(at)].time;
  s.energy_pj = last.alts[static_cast<size_t>(at)].energy_pj;
  for (int v = n; v >= 1; --v) {
    const auto& layer = layers[static_cast<size_t>(v)];
    const bool full = v == n;  // the last layer keeps its alternatives, the others their way back
    s.choice[static_cast<size_t>(v) - 1] = full ? layer.alts[static_cast<size_t>(at)].choice
                                                : layer.back[static_cast<size_t>(at)].choice;
    at = full ? layer.alts[static_cast<size_t>(at)].parent : layer.back[static_cast<size_t>(at)].parent;
  }
  s.peak_states = peak;
  s.thinned_steps = thinned_steps;
  if (thinned_steps > 0 && best > 0.0) {
    s.gap_bound = lowest > 0.0 ? best / lowest - 1.0 : std::numeric_limits<double>::infinity();
  }
  return s;
}

}  // namespace

Selection select_thinned(const SelectionProblem& p, Objective objective, double watts, const FrontThinning& thin) {
  if (std::optional<Selection> s = std::move(select_scaled(p, objective, {watts}, 1.0, 1.0, thin).front())) {
    return std::move(*s);
  }
  // Every weight overflowed: energies near the double's range, or a huge power (the joint
  // search derives its powers from the energies). The weights times 2^-64 / max(watts, 1), a
  // positive factor, keep their order and stay finite: (e + W t) 2^-64 / max(W, 1) <= 1.8e308
  // x 2^-64 + 2^63 x 2^-64 for energy, and t <= 2^63 ps times that for EDP.
  const double divisor = std::max(watts, 1.0);
  if (std::optional<Selection> s =
          std::move(select_scaled(p, objective, {watts}, std::ldexp(1.0, -64), divisor, thin).front())) {
    return std::move(*s);
  }
  std::string text = "the " + std::string(objective_name(objective)) + " objective is not representable for any placement (";
  char power[32];
  std::snprintf(power, sizeof power, "%g", watts);
  text += watts > 0.0 ? "energy + " + std::string(power) + " W x time" : std::string("the energy x time");
  throw Error(text + " exceeds a double; check energy and power parameters)");
}

Selection select_exact(const SelectionProblem& p, Objective objective, double watts) {
  return select_thinned(p, objective, watts, FrontThinning{});
}

std::vector<Selection> select_exact_many(const SelectionProblem& p, Objective objective,
                                         const std::vector<double>& watts) {
  if (objective == Objective::edp || watts.size() < 2) {
    std::vector<Selection> out;
    for (double w : watts) out.push_back(select_exact(p, objective, w));
    return out;
  }
  std::vector<std::optional<Selection>> lanes;
  try {
    lanes = select_scaled(p, objective, watts, 1.0, 1.0, FrontThinning{});
  } catch (const Error&) {
    // A sum that overflows: each power on its own, which throws as select_exact does (the
    // lanes together could meet another lane's overflow first).
    lanes.assign(watts.size(), std::nullopt);
  }
  std::vector<Selection> out;
  out.reserve(watts.size());
  for (size_t l = 0; l < watts.size(); ++l) {
    // A lane whose weights all overflowed: select_exact scales them, or says why it cannot.
    out.push_back(lanes[l] ? std::move(*lanes[l]) : select_exact(p, objective, watts[l]));
  }
  return out;
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
