#include "sim/opt/threshold.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "sim/core/error.hpp"

namespace lightcode::opt {
namespace {

constexpr std::string_view kOpAndEdges = "an op's time plus the transfers into and out of it";

bool is_photonic(const hw::System& system, const Candidate& c) { return system.model(c.unit).capabilities().photonic; }

double node_value(const Candidate& c, Objective o) {
  return objective_value(o, c.cost.time, c.cost.energy.picojoules());
}

// Where each op runs when nobody moves it to the PHU: its cheapest non-photonic candidate by
// node cost (its cheapest overall if it has only photonic ones).
std::vector<hw::UnitType> electronic_context(const StackedGraph& s, Objective o) {
  std::vector<hw::UnitType> unit(s.size(), 0);
  for (size_t i = 0; i < s.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    const Candidate* best = nullptr;
    bool best_photonic = true;
    for (const Candidate* c = s.begin(id); c != s.end(id); ++c) {
      if (c->group >= 0) continue;  // the op alone: fused kernels are not an op's placement
      const bool p = is_photonic(s.system(), *c);
      // A non-photonic candidate always beats a photonic one here; within a kind, the cheaper.
      if (!best || (best_photonic && !p) || (p == best_photonic && node_value(*c, o) < node_value(*best, o))) {
        best = c;
        best_photonic = p;
      }
    }
    if (best) unit[i] = best->unit;
  }
  return unit;
}

// Node cost plus the edges into and out of `id` with the op on `c.unit` and its neighbours on
// their electronic units.
double op_value(const StackedGraph& s, const std::vector<std::vector<ir::Graph::Use>>& consumers,
                const std::vector<hw::UnitType>& context, ir::NodeId id, const Candidate& c, Objective o) {
  Time time = c.cost.time;
  double energy_pj = c.cost.energy.picojoules();
  const ir::Node& n = s.graph().node(id);
  for (size_t p = 0; p < n.inputs.size(); ++p) {
    const hw::Cost e = s.edge_cost(id, static_cast<int>(p), context[static_cast<size_t>(n.inputs[p].node)], c.unit);
    time = time.plus(e.time, kOpAndEdges);
    energy_pj += e.energy.picojoules();
  }
  for (const ir::Graph::Use& u : consumers[static_cast<size_t>(id)]) {
    const hw::Cost e = s.edge_cost(u.consumer, u.position, c.unit, context[static_cast<size_t>(u.consumer)]);
    time = time.plus(e.time, kOpAndEdges);
    energy_pj += e.energy.picojoules();
  }
  return objective_value(o, time, energy_pj);
}

// Every flip of a boolean over lengths, by bisection between probed lengths that disagree.
// Only called on brackets whose ends disagree; afterwards each flip lies between two adjacent
// probed lengths.
template <typename Pred>
void refine(int64_t a, int64_t b, const Pred& pred) {
  if (b - a <= 1) return;
  const int64_t m = a + (b - a) / 2;
  const bool pm = pred(m);
  if (pm != pred(a)) refine(a, m, pred);
  if (pm != pred(b)) refine(m, b, pred);
}

}  // namespace

std::vector<OpComparison> compare_photonic(const StackedGraph& stacks, Objective objective) {
  const std::vector<hw::UnitType> context = electronic_context(stacks, objective);
  const auto consumers = stacks.graph().consumers();
  std::vector<OpComparison> out;
  for (size_t i = 0; i < stacks.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (stacks.candidate_count(id) < 2) continue;
    std::optional<double> photonic, electronic;
    for (const Candidate* c = stacks.begin(id); c != stacks.end(id); ++c) {
      if (c->group >= 0) continue;
      const double v = op_value(stacks, consumers, context, id, *c, objective);
      std::optional<double>& slot = is_photonic(stacks.system(), *c) ? photonic : electronic;
      if (!slot || v < *slot) slot = v;
    }
    if (photonic && electronic) out.push_back(OpComparison{id, *photonic, *electronic});
  }
  return out;
}

std::vector<int64_t> geometric_grid(int64_t lo, int64_t hi, int points) {
  if (hi < lo) throw Error("empty length range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  const double span = static_cast<double>(hi - lo + 1);
  const int n = std::max(points, 2);
  std::vector<int64_t> grid{lo};
  for (int i = 1; i < n; ++i) {
    // Offsets 1 .. span spaced by a constant ratio: dense where short prompts differ most.
    const double offset = std::pow(span, static_cast<double>(i) / static_cast<double>(n - 1));
    const int64_t l = std::min<int64_t>(hi, lo - 1 + static_cast<int64_t>(std::llround(offset)));
    if (l > grid.back()) grid.push_back(l);
  }
  if (grid.back() != hi) grid.push_back(hi);
  return grid;
}

ThresholdReport find_thresholds(const GraphAtLength& graph_at, const hw::System& system, Objective objective,
                                int64_t lo, int64_t hi, int grid_points) {
  if (lo < 1 || hi < lo) {
    throw Error("threshold search: length range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                "] is empty or inverted (need 1 <= start <= stop)");
  }
  ThresholdReport report;
  report.system = system.name();
  report.objective = objective;
  report.lo = lo;
  report.hi = hi;

  // One graph per probed length gives every op's comparison at once.
  std::vector<std::string> names;  // node names of the first graph, to check the others
  std::vector<ir::NodeId> ops;     // ops with both kinds of candidate
  std::vector<std::string> kinds;
  std::map<int64_t, std::vector<OpComparison>> memo;
  const auto at = [&](int64_t length) -> const std::vector<OpComparison>& {
    auto it = memo.find(length);
    if (it != memo.end()) return it->second;
    const ir::Graph g = graph_at(length);
    const StackedGraph stacks(g, system);
    std::vector<OpComparison> cmp = compare_photonic(stacks, objective);
    if (names.empty()) {
      for (const ir::Node& n : g.nodes()) names.push_back(n.name);
      for (const OpComparison& c : cmp) {
        ops.push_back(c.node);
        kinds.push_back(g.node(c.node).kind_name);
      }
    } else {
      bool same = g.size() == names.size() && cmp.size() == ops.size();
      for (size_t i = 0; same && i < g.size(); ++i) same = g.nodes()[i].name == names[i];
      for (size_t i = 0; same && i < cmp.size(); ++i) same = cmp[i].node == ops[i];
      if (!same) {
        throw Error("threshold search: the graph at length " + std::to_string(length) +
                    " has different ops than at length " + std::to_string(memo.begin()->first));
      }
    }
    return memo.emplace(length, std::move(cmp)).first->second;
  };

  // Group ops by kind and by their values on the grid: same pattern, same threshold.
  const std::vector<int64_t> grid = geometric_grid(lo, hi, grid_points);
  for (int64_t l : grid) at(l);
  std::map<std::pair<std::string, std::vector<double>>, size_t> group_of;
  std::vector<size_t> member_index;  // position in `ops` of each group's representative
  for (size_t i = 0; i < ops.size(); ++i) {
    std::vector<double> pattern;
    for (int64_t l : grid) {
      pattern.push_back(memo.at(l)[i].photonic);
      pattern.push_back(memo.at(l)[i].electronic);
    }
    const auto [it, fresh] = group_of.emplace(std::make_pair(kinds[i], std::move(pattern)), report.groups.size());
    if (fresh) {
      report.groups.emplace_back();
      report.groups.back().kind = kinds[i];
      member_index.push_back(i);
    }
    ThresholdGroup& g = report.groups[it->second];
    g.ops.push_back(names[static_cast<size_t>(ops[i])]);
    g.nodes.push_back(ops[i]);
  }

  for (size_t gi = 0; gi < report.groups.size(); ++gi) {
    ThresholdGroup& g = report.groups[gi];
    const size_t rep = member_index[gi];
    std::map<int64_t, bool> probed;
    const auto wins = [&](int64_t l) {
      const bool w = at(l)[rep].photonic_wins();
      probed.emplace(l, w);
      return w;
    };
    for (int64_t l : grid) wins(l);
    for (size_t k = 0; k + 1 < grid.size(); ++k) {
      if (wins(grid[k]) != wins(grid[k + 1])) refine(grid[k], grid[k + 1], wins);
    }
    // Flips lie between adjacent probed lengths, so runs of equal values are ranges.
    bool open = false;  // a plain flag: GCC 12 misreads std::optional here (maybe-uninitialized)
    int64_t open_from = lo;
    for (const auto& [l, w] : probed) {
      if (w && !open) {
        open = true;
        open_from = l;
      }
      if (!w && open) {
        g.photonic_ranges.emplace_back(open_from, l - 1);
        open = false;
      }
    }
    if (open) g.photonic_ranges.emplace_back(open_from, hi);
    if (g.photonic_ranges.empty()) continue;
    const int64_t t = g.photonic_ranges.front().first;
    g.threshold = t;
    g.from_start = t == lo;
    g.photonic_at = at(t)[rep].photonic;
    g.electronic_at = at(t)[rep].electronic;
    if (t > lo) {
      g.photonic_before = at(t - 1)[rep].photonic;
      g.electronic_before = at(t - 1)[rep].electronic;
    }
  }
  std::stable_sort(report.groups.begin(), report.groups.end(), [](const ThresholdGroup& a, const ThresholdGroup& b) {
    if (a.threshold.has_value() != b.threshold.has_value()) return a.threshold.has_value();
    return a.threshold && *a.threshold < *b.threshold;
  });
  report.lengths_probed = memo.size();
  return report;
}

}  // namespace lightcode::opt
