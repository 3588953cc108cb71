#include "sim/opt/split_product.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/opt/photonic_expansion.hpp"

namespace lightcode::opt {
namespace {

constexpr ir::NodeId kAdded = 4;  // split_rows puts 5 nodes where the product was
constexpr int64_t kWindow = 8;    // rows searched on each side of the closed form
constexpr int64_t kBracketSamples = 16;
constexpr int64_t kRowByRow = 64;  // a bracket this narrow is searched row by row

std::string describe(const ir::Graph& g, ir::NodeId id) {
  const ir::Node& n = g.node(id);
  return "node " + std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ")";
}

[[noreturn]] void fail(const ir::Graph& g, const std::string& message) {
  throw Error(SourcePlace{g.source(), 0, 0, ""}, "row split: " + message);
}

// The M of a product split_rows can split (its rows along the second-to-last axis).
int64_t product_rows(const ir::Graph& g, ir::NodeId id) {
  if (id < 0 || static_cast<size_t>(id) >= g.size()) {
    fail(g, "node " + std::to_string(id) + " does not exist (the graph has " +
                std::to_string(g.size()) + " nodes)");
  }
  const ir::Node& n = g.node(id);
  if (n.kind != ir::OpKind::dense && n.kind != ir::OpKind::matmul) {
    fail(g, describe(g, id) + " is not a dense or matmul product");
  }
  if (n.inputs.size() != 2 || n.input_types.size() != 2 || n.outputs.size() != 1) {
    fail(g, describe(g, id) + " should read two operands and write one tensor");
  }
  const ir::Shape& in = n.input_type(0).shape;
  const ir::Shape& out = n.output().shape;
  if (in.rank() < 2 || out.rank() < 2 || in.from_back(2) != out.from_back(2)) {
    fail(g, describe(g, id) + ": input 0 " + in.str() + " and output " + out.str() +
                " do not share the row axis (second-to-last)");
  }
  if (out.from_back(2) < 2) fail(g, describe(g, id) + " has fewer than 2 rows: " + out.str());
  return out.from_back(2);
}

ir::TensorType with_rows(ir::TensorType t, int64_t rows) {
  t.shape[t.shape.rank() - 2] = rows;
  return t;
}

// The five nodes replacing product `p` in `out`, whose inputs are already remapped by `moved`.
template <class Moved>
void add_split(ir::Graph& out, const ir::Node& p, int64_t rows_a, int64_t m, const Moved& moved) {
  const ir::TensorType& a = p.input_type(0);
  const ir::Input source{moved(p.inputs[0].node), p.inputs[0].output};
  const ir::Input weights{moved(p.inputs[1].node), p.inputs[1].output};
  const std::string axis = std::to_string(a.shape.rank() - 2);
  auto half = [&](const char* tag, int64_t begin, int64_t end) {
    const ir::TensorType sliced = with_rows(a, end - begin);
    ir::Node s = synthetic(ir::OpKind::slice, p.name + "/" + tag + "_slice", {a}, {sliced});
    s.inputs = {source};
    s.attrs = {{"axis", axis}, {"begin", std::to_string(begin)}, {"end", std::to_string(end)}};
    const ir::NodeId slice = out.add(std::move(s));
    ir::Node h = p;  // kind, attrs, required bits
    h.name = p.name + "/" + tag;
    h.inputs = {ir::Input{slice, 0}, weights};
    h.input_types = {sliced, p.input_type(1)};
    h.outputs = {with_rows(p.output(), end - begin)};
    return ir::Input{out.add(std::move(h)), 0};
  };
  const ir::Input first = half("rows_a", 0, rows_a);
  const ir::Input second = half("rows_b", rows_a, m);
  ir::Node c =
      synthetic(ir::OpKind::concatenate, p.name + "/concat",
                {out.node(first.node).output(), out.node(second.node).output()}, p.outputs);
  c.inputs = {first, second};
  c.attrs = {{"axis", axis}};
  out.add(std::move(c));
}

// t_x(rows) of the header: one half of `product` on `unit`, its result moved to `concat_unit`.
class HalfTime {
 public:
  HalfTime(const StackedGraph& stacks, ir::NodeId product, hw::UnitType unit,
           hw::UnitType concat_unit)
      : stacks_(stacks),
        system_(stacks.system()),
        product_(stacks.graph().node(product)),
        unit_(unit),
        concat_unit_(concat_unit) {
    const ir::Graph& g = stacks.graph();
    algorithm_ = first_algorithm(unit, product_);
    if (algorithm_ < 0) {
      fail(g, "unit '" + unit_name(unit) + "' cannot run " + describe(g, product));
    }
    photonic_ = system_.model(unit).capabilities().photonic;
    for (size_t p = 0; p < 2; ++p) {
      const ir::NodeId producer = product_.inputs[p].node;
      for (const Candidate* c = stacks.begin(producer); c != stacks.end(producer); ++c) {
        if (std::find(sources_[p].begin(), sources_[p].end(), c->unit) == sources_[p].end()) {
          sources_[p].push_back(c->unit);
        }
      }
    }
    const ir::Node slice = row_slice(1);
    for (size_t t = 0; t < system_.unit_count(); ++t) {
      const auto u = static_cast<hw::UnitType>(t);
      if (first_algorithm(u, slice) >= 0) slicers_.push_back(u);
    }
    if (slicers_.empty()) fail(g, "no unit of the system runs a slice of '" + product_.name + "'");
  }

  Time at(int64_t rows) const {
    ir::Node op = product_;
    op.input_types[0] = with_rows(op.input_types[0], rows);
    op.outputs[0] = with_rows(op.outputs[0], rows);
    return photonic_ ? through_staging(op, rows) : direct(op, rows);
  }

 private:
  static constexpr const char* kWhat = "a split half's time";

  std::string unit_name(hw::UnitType u) const { return system_.unit(u).name; }
  int first_algorithm(hw::UnitType u, const ir::Node& op) const {
    const hw::AlgorithmList list = system_.model(u).algorithms(op);
    return list.empty() ? -1 : list.ids[0];
  }
  Time run(hw::UnitType u, const ir::Node& op, int algorithm) const {
    return system_.model(u).estimate(op, static_cast<hw::AlgorithmId>(algorithm)).time;
  }
  // A transfer's time, or none when the system has no route (transfer_model.hpp).
  std::optional<Time> route(const ir::TensorType& tensor, hw::UnitType from,
                            hw::UnitType to) const {
    try {
      return system_.transfers().estimate(tensor, from, to).time;
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  Time route_or_fail(const ir::TensorType& tensor, hw::UnitType from, hw::UnitType to,
                     const char* what) const {
    const std::optional<Time> t = route(tensor, from, to);
    if (!t) {
      fail(stacks_.graph(), std::string(what) + " of '" + product_.name +
                                "' has no route from unit '" + unit_name(from) + "' to unit '" +
                                unit_name(to) + "'");
    }
    return *t;
  }

  // Input 0 cut to `rows` rows, as split_rows emits it (unwired).
  ir::Node row_slice(int64_t rows) const {
    const ir::TensorType& in = product_.input_type(0);
    return synthetic(ir::OpKind::slice, product_.name + "/slice", {in}, {with_rows(in, rows)});
  }

  // The soonest input `position` (as `tensor`) reaches unit `to` from a unit its producer may
  // run on; Time::max() when none has a route.
  Time arrival(size_t position, const ir::TensorType& tensor, hw::UnitType to) const {
    Time best = Time::max();
    for (hw::UnitType from : sources_[position]) {
      if (const std::optional<Time> t = route(tensor, from, to)) best = std::min(best, *t);
    }
    return best;
  }
  Time weights_arrival(const ir::TensorType& tensor, hw::UnitType to) const {
    const Time t = arrival(1, tensor, to);
    if (t == Time::max()) {
      fail(stacks_.graph(),
           "input 1 of '" + product_.name + "' cannot reach unit '" + unit_name(to) + "'");
    }
    return t;
  }

  // The soonest the `rows`-row slice of input 0 reaches unit `to`: the slice runs on the unit
  // where the whole input arrives, the slice runs and its result moves on soonest.
  Time sliced_arrival(int64_t rows, hw::UnitType to) const {
    const ir::Node slice = row_slice(rows);
    Time best = Time::max();
    for (hw::UnitType u : slicers_) {
      const Time whole = arrival(0, slice.input_type(0), u);
      const std::optional<Time> on = route(slice.output(), u, to);
      if (whole == Time::max() || !on) continue;
      best = std::min(best,
                      whole.plus(run(u, slice, first_algorithm(u, slice)), kWhat).plus(*on, kWhat));
    }
    if (best == Time::max()) {
      fail(stacks_.graph(), "a slice of input 0 of '" + product_.name + "' cannot reach unit '" +
                                unit_name(to) + "'");
    }
    return best;
  }

  // An electronic unit: both inputs arrive (in parallel), the product runs, the result moves.
  Time direct(const ir::Node& op, int64_t rows) const {
    const Time arrive =
        std::max(sliced_arrival(rows, unit_), weights_arrival(op.input_type(1), unit_));
    const Time back = route_or_fail(op.output(), unit_, concat_unit_, "the result");
    return arrive.plus(run(unit_, op, algorithm_), kWhat).plus(back, kWhat);
  }

  // A photonic unit, as opt::expand runs it (photonic_expansion.hpp): the inputs gather on
  // the staging memory (split), each 2-D product's operands move to the unit as one tensor,
  // the products run in rounds on the unit's instances, their results move back (merge) and
  // on to the concatenate.
  Time through_staging(const ir::Node& op, int64_t rows) const {
    PhotonicExpansion x;
    try {
      x = plan_photonic_expansion(system_, op, unit_, static_cast<hw::AlgorithmId>(algorithm_));
    } catch (const Error& e) {
      fail(stacks_.graph(), "the photonic expansion of '" + product_.name + "' on unit '" + unit_name(unit_) +
                                "': " + e.what());
    }
    const Time gather =
        std::max(sliced_arrival(rows, x.staging), weights_arrival(op.input_type(1), x.staging));
    Time t = gather.plus(x.split_cost.time, kWhat)
                 .plus(x.operands_in.time, kWhat)
                 .plus(x.product_cost.time * x.rounds(system_), kWhat);
    t = t.plus(x.result_out.time, kWhat).plus(x.merge_cost.time, kWhat);
    return t.plus(route_or_fail(op.output(), x.staging, concat_unit_, "the result"), kWhat);
  }

  const StackedGraph& stacks_;
  const hw::System& system_;
  const ir::Node& product_;
  hw::UnitType unit_;
  hw::UnitType concat_unit_;
  bool photonic_ = false;
  int algorithm_ = -1;
  std::array<std::vector<hw::UnitType>, 2> sources_;  // the units each input's producer may use
  std::vector<hw::UnitType> slicers_;                 // the units that run a slice
};

double ps(Time t) {
  return static_cast<double>(t.count_ps());
}

// The rows of half a minimising the later half's time (the header's search), ties nearest
// the closed form `centre`.
int64_t refined_rows(const HalfTime& a, const HalfTime& b, int64_t m, double centre) {
  Time best = Time::max();
  int64_t best_rows = 0;
  auto later = [&](int64_t rows_a) {
    const Time t = std::max(a.at(rows_a), b.at(m - rows_a));
    const bool nearer = std::abs(static_cast<double>(rows_a) - centre) <
                        std::abs(static_cast<double>(best_rows) - centre);
    if (t < best || (t == best && nearer)) {
      best = t;
      best_rows = rows_a;
    }
    return t;
  };
  const auto nearest = static_cast<int64_t>(std::llround(centre));
  for (int64_t r = std::max<int64_t>(1, nearest - kWindow);
       r <= std::min<int64_t>(m - 1, nearest + kWindow); ++r) {
    later(r);
  }
  int64_t lo = 1, hi = m - 1;
  while (hi - lo > kRowByRow) {
    auto sample = [&](int64_t k) { return lo + (hi - lo) * k / kBracketSamples; };
    int64_t arg = 0;
    Time least = Time::max();
    for (int64_t k = 0; k <= kBracketSamples; ++k) {
      const Time t = later(sample(k));
      if (t < least) {
        least = t;
        arg = k;
      }
    }
    const int64_t narrowed_lo = sample(std::max<int64_t>(0, arg - 1));
    hi = sample(std::min<int64_t>(kBracketSamples, arg + 1));
    lo = narrowed_lo;
  }
  for (int64_t r = lo; r <= hi; ++r) later(r);
  return best_rows;
}

// The first candidate of `id` running it alone, on `unit` (any unit when unit < 0); -1 if none.
int single_candidate(const StackedGraph& stacks, ir::NodeId id, hw::UnitType unit) {
  for (int k = 0; k < stacks.candidate_count(id); ++k) {
    const Candidate& c = stacks.candidate(id, k);
    if (c.group < 0 && (unit < 0 || c.unit == unit)) return k;
  }
  return -1;
}

}  // namespace

ir::Graph split_rows(const ir::Graph& graph, ir::NodeId product, int64_t rows_a) {
  const int64_t m = product_rows(graph, product);
  if (rows_a <= 0 || rows_a >= m) {
    fail(graph, describe(graph, product) + " has " + std::to_string(m) +
                    " rows: rows_a must be in [1, " + std::to_string(m - 1) + "], found " +
                    std::to_string(rows_a));
  }
  if (graph.size() > static_cast<size_t>(std::numeric_limits<ir::NodeId>::max() - kAdded)) {
    fail(graph, "the graph has too many nodes to add 4");
  }
  // The concatenate lands at product + 4, which is where every later id moves too.
  const auto moved = [product](ir::NodeId id) { return id < product ? id : id + kAdded; };
  ir::Graph out;
  out.set_input_rule(graph.input_rule());
  out.set_source(graph.source());
  out.reserve(graph.size() + static_cast<size_t>(kAdded));
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (id == product) {
      add_split(out, graph.node(id), rows_a, m, moved);
      continue;
    }
    ir::Node n = graph.node(id);
    for (ir::Input& in : n.inputs) in.node = moved(in.node);
    out.add(std::move(n));
  }
  for (ir::Input head : graph.heads()) {
    head.node = moved(head.node);
    out.add_head(head);
  }
  return out;
}

SplitPlan balanced_split(const StackedGraph& stacks, ir::NodeId product, hw::UnitType unit_a,
                         hw::UnitType unit_b) {
  const ir::Graph& g = stacks.graph();
  const int64_t m = product_rows(g, product);
  const auto units = static_cast<hw::UnitType>(stacks.system().unit_count());
  if (unit_a < 0 || unit_a >= units || unit_b < 0 || unit_b >= units) {
    fail(g, "unit types " + std::to_string(unit_a) + " and " + std::to_string(unit_b) + " for " +
                describe(g, product) + ": the system has " + std::to_string(units));
  }
  if (unit_a == unit_b) {
    fail(g, describe(g, product) + " would be split between unit '" +
                stacks.system().unit(unit_a).name + "' and itself");
  }
  const HalfTime a(stacks, product, unit_a, unit_b);
  const HalfTime b(stacks, product, unit_b, unit_b);

  SplitPlan plan;
  plan.unit_a = unit_a;
  plan.unit_b = unit_b;
  plan.rows = m;
  const auto rows = static_cast<double>(m);
  const double a1 = ps(a.at(1)), b1 = ps(b.at(1));
  plan.slope_a = (ps(a.at(m)) - a1) / (rows - 1.0);
  plan.slope_b = (ps(b.at(m)) - b1) / (rows - 1.0);
  plan.fixed_a = a1 - plan.slope_a;
  plan.fixed_b = b1 - plan.slope_b;
  const double slopes = plan.slope_a + plan.slope_b;
  const double balance =
      slopes > 0.0 ? (plan.fixed_b + plan.slope_b * rows - plan.fixed_a) / slopes : rows / 2.0;
  plan.closed_form_rows_a = std::clamp(balance, 1.0, rows - 1.0);

  plan.rows_a = refined_rows(a, b, m, plan.closed_form_rows_a);
  plan.finish_a = a.at(plan.rows_a);
  plan.finish_b = b.at(m - plan.rows_a);
  return plan;
}

void force_unit(const StackedGraph& stacks, Placement& placement, ir::NodeId node,
                hw::UnitType unit) {
  const ir::Graph& g = stacks.graph();
  if (node < 0 || static_cast<size_t>(node) >= g.size() || placement.choice.size() != g.size()) {
    fail(g, "cannot force node " + std::to_string(node) + ": the graph has " +
                std::to_string(g.size()) + " nodes and the placement " +
                std::to_string(placement.choice.size()));
  }
  const int k = single_candidate(stacks, node, unit);
  if (k < 0) {
    const std::string name = unit >= 0 && static_cast<size_t>(unit) < stacks.system().unit_count()
                                 ? stacks.system().unit(unit).name
                                 : std::to_string(unit);
    fail(g, describe(g, node) + " has no single-op candidate on unit '" + name + "' of system '" +
                stacks.system().name() + "'");
  }
  auto& choice = placement.choice;
  const Candidate& was = stacks.candidate(node, choice[static_cast<size_t>(node)]);
  if (was.group >= 0) {
    // The rest of the group leaves it too: a group runs with all its members or none.
    for (ir::NodeId member : stacks.group(was.group).kernel.members) {
      if (member == node) continue;
      const Candidate& c = stacks.candidate(member, choice[static_cast<size_t>(member)]);
      if (c.group != was.group) continue;
      int alone = single_candidate(stacks, member, was.unit);
      if (alone < 0) alone = single_candidate(stacks, member, -1);
      if (alone < 0) fail(g, describe(g, member) + " has no single-op candidate");
      choice[static_cast<size_t>(member)] = alone;
    }
  }
  choice[static_cast<size_t>(node)] = k;
}

}  // namespace lightcode::opt
