#include "sim/ir/isomorphism.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lightcode::ir {
namespace {

// A node's label as integers, so colours compare exactly (no hashing, no collisions).
std::vector<int64_t> label(const Node& n) {
  std::vector<int64_t> l;
  for (char c : n.kind_name) l.push_back(c);
  l.push_back(-1);
  auto put = [&](const TensorType& t) {
    l.push_back(static_cast<int64_t>(t.dtype));
    l.push_back(t.shape.rank());
    for (int64_t d : t.shape) l.push_back(d);
  };
  l.push_back(static_cast<int64_t>(n.outputs.size()));
  for (const auto& t : n.outputs) put(t);
  l.push_back(static_cast<int64_t>(n.input_types.size()));
  for (const auto& t : n.input_types) put(t);
  return l;
}

// Both graphs as one: nodes [0, na) are a's, [na, na + nb) are b's.
struct Union {
  size_t na = 0;
  size_t total = 0;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> in;   // (producer, output index)
  std::vector<std::vector<std::tuple<int32_t, int32_t, int32_t>>> out;  // (consumer, pos, output)
};

Union make_union(const Graph& a, const Graph& b) {
  Union u;
  u.na = a.size();
  u.total = a.size() + b.size();
  u.in.resize(u.total);
  u.out.resize(u.total);
  auto add = [&](const Graph& g, size_t offset) {
    for (size_t i = 0; i < g.size(); ++i) {
      const auto& ins = g.nodes()[i].inputs;
      for (size_t p = 0; p < ins.size(); ++p) {
        const auto prod = static_cast<int32_t>(offset + static_cast<size_t>(ins[p].node));
        u.in[offset + i].emplace_back(prod, ins[p].output);
        u.out[static_cast<size_t>(prod)].emplace_back(static_cast<int32_t>(offset + i),
                                                       static_cast<int32_t>(p), ins[p].output);
      }
    }
  };
  add(a, 0);
  add(b, a.size());
  return u;
}

using Colours = std::vector<int32_t>;

struct VecHash {
  size_t operator()(const std::vector<int64_t>& v) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t x : v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

// Gives each distinct signature a dense id; ids are ranks of the sorted signatures so that
// colours do not depend on the order nodes are visited in.
Colours rank_signatures(const std::vector<std::vector<int64_t>>& sig) {
  std::unordered_map<std::vector<int64_t>, int32_t, VecHash> ids;
  ids.reserve(sig.size());
  for (const auto& s : sig) ids.emplace(s, 0);
  std::vector<const std::vector<int64_t>*> keys;
  keys.reserve(ids.size());
  for (const auto& kv : ids) keys.push_back(&kv.first);
  std::sort(keys.begin(), keys.end(), [](const auto* x, const auto* y) { return *x < *y; });
  for (size_t i = 0; i < keys.size(); ++i) ids[*keys[i]] = static_cast<int32_t>(i);
  Colours out(sig.size());
  for (size_t v = 0; v < sig.size(); ++v) out[v] = ids[sig[v]];
  return out;
}

int32_t class_count(const Colours& c) {
  return c.empty() ? 0 : *std::max_element(c.begin(), c.end()) + 1;
}

// Refines until stable; new colours are dense ranks of (old colour, in-neighbour colours in
// position order, sorted out-neighbour (colour, position, output) triples).
void refine(const Union& u, Colours& colours) {
  int32_t classes = class_count(colours);
  std::vector<std::vector<int64_t>> sig(u.total);
  std::vector<std::tuple<int32_t, int32_t, int32_t>> outs;
  for (;;) {
    for (size_t v = 0; v < u.total; ++v) {
      auto& s = sig[v];
      s.clear();
      s.push_back(colours[v]);
      for (const auto& [p, o] : u.in[v]) {
        s.push_back(colours[static_cast<size_t>(p)]);
        s.push_back(o);
      }
      s.push_back(-1);
      outs.clear();
      for (const auto& [c, pos, o] : u.out[v]) {
        outs.emplace_back(colours[static_cast<size_t>(c)], pos, o);
      }
      std::sort(outs.begin(), outs.end());
      for (const auto& [c, pos, o] : outs) {
        s.push_back(c);
        s.push_back(pos);
        s.push_back(o);
      }
    }
    colours = rank_signatures(sig);
    const int32_t next = class_count(colours);
    if (next == classes) return;
    classes = next;
  }
}

// Strong starting colours in two sweeps, so refine() needs few rounds on long chains: forward
// in topological order (label + producers' colours), then backward (+ consumers' colours).
Colours sweep_colours(const Graph& a, const Graph& b, const Union& u, const Colours& labels) {
  std::vector<size_t> order;
  order.reserve(u.total);
  for (NodeId v : a.topological_order()) order.push_back(static_cast<size_t>(v));
  for (NodeId v : b.topological_order()) order.push_back(u.na + static_cast<size_t>(v));
  // Forward ids are assigned on the fly in a shared table: equal signatures, equal ids.
  std::map<std::vector<int64_t>, int32_t> table;
  Colours fwd(u.total);
  for (size_t v : order) {
    std::vector<int64_t> s{labels[v]};
    for (const auto& [p, o] : u.in[v]) {
      s.push_back(fwd[static_cast<size_t>(p)]);
      s.push_back(o);
    }
    fwd[v] = table.emplace(std::move(s), static_cast<int32_t>(table.size())).first->second;
  }
  table.clear();
  Colours bwd(u.total);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const size_t v = *it;
    std::vector<std::tuple<int32_t, int32_t, int32_t>> outs;
    for (const auto& [c, pos, o] : u.out[v]) outs.emplace_back(bwd[static_cast<size_t>(c)], pos, o);
    std::sort(outs.begin(), outs.end());
    std::vector<int64_t> s{fwd[v]};
    for (const auto& [c, pos, o] : outs) {
      s.push_back(c);
      s.push_back(pos);
      s.push_back(o);
    }
    bwd[v] = table.emplace(std::move(s), static_cast<int32_t>(table.size())).first->second;
  }
  // Forward/backward ids depend on visiting order within a graph only through equal
  // signatures, which get equal ids; re-rank so ids are dense and order-free.
  std::vector<std::vector<int64_t>> sig(u.total);
  for (size_t v = 0; v < u.total; ++v) sig[v] = {bwd[v]};
  return rank_signatures(sig);
}

// Per class: how many of a's and of b's nodes carry it. Equal everywhere is necessary.
std::optional<int32_t> unbalanced_class(const Union& u, const Colours& c) {
  const int32_t k = class_count(c);
  std::vector<int64_t> balance(static_cast<size_t>(k), 0);
  for (size_t v = 0; v < u.total; ++v) balance[static_cast<size_t>(c[v])] += v < u.na ? 1 : -1;
  for (int32_t i = 0; i < k; ++i) {
    if (balance[static_cast<size_t>(i)] != 0) return i;
  }
  return std::nullopt;
}

bool edges_match(const Graph& a, const Graph& b, const std::vector<int32_t>& a_to_b) {
  for (size_t i = 0; i < a.size(); ++i) {
    const Node& na = a.nodes()[i];
    const Node& nb = b.nodes()[static_cast<size_t>(a_to_b[i])];
    if (na.kind_name != nb.kind_name || na.outputs != nb.outputs ||
        na.input_types != nb.input_types || na.inputs.size() != nb.inputs.size()) {
      return false;
    }
    for (size_t p = 0; p < na.inputs.size(); ++p) {
      if (a_to_b[static_cast<size_t>(na.inputs[p].node)] != nb.inputs[p].node ||
          na.inputs[p].output != nb.inputs[p].output) {
        return false;
      }
    }
  }
  return true;
}

// Depth-first individualisation: fix one a-node of the first ambiguous class to each b-node
// of that class in turn, refine, recurse. Automorphic choices succeed on the first try.
bool search(const Graph& a, const Graph& b, const Union& u, Colours colours, int depth) {
  refine(u, colours);
  if (unbalanced_class(u, colours)) return false;
  const int32_t k = class_count(colours);
  std::vector<int32_t> size(static_cast<size_t>(k), 0);
  for (size_t v = 0; v < u.na; ++v) ++size[static_cast<size_t>(colours[v])];
  std::optional<int32_t> ambiguous;
  for (size_t v = 0; v < u.na && !ambiguous; ++v) {
    if (size[static_cast<size_t>(colours[v])] > 1) ambiguous = colours[v];
  }
  if (!ambiguous) {
    std::vector<int32_t> b_of_colour(static_cast<size_t>(k), -1);
    for (size_t v = u.na; v < u.total; ++v) {
      b_of_colour[static_cast<size_t>(colours[v])] = static_cast<int32_t>(v - u.na);
    }
    std::vector<int32_t> a_to_b(u.na);
    for (size_t v = 0; v < u.na; ++v) a_to_b[v] = b_of_colour[static_cast<size_t>(colours[v])];
    return edges_match(a, b, a_to_b);
  }
  if (depth > 64) return false;  // pathological symmetry; reported as a mismatch
  size_t pick_a = 0;
  while (colours[pick_a] != *ambiguous) ++pick_a;
  for (size_t v = u.na; v < u.total; ++v) {
    if (colours[v] != *ambiguous) continue;
    Colours trial = colours;
    trial[pick_a] = k;
    trial[v] = k;
    if (search(a, b, u, std::move(trial), depth + 1)) return true;
  }
  return false;
}

std::string describe_class(const Graph& a, const Graph& b, const Union& u, const Colours& c,
                           int32_t cls) {
  int64_t in_a = 0, in_b = 0;
  std::optional<size_t> example;
  for (size_t v = 0; v < u.total; ++v) {
    if (c[v] != cls) continue;
    (v < u.na ? in_a : in_b)++;
    if (!example) example = v;
  }
  const bool from_a = *example < u.na;
  const Graph& g = from_a ? a : b;
  const auto id = static_cast<NodeId>(from_a ? *example : *example - u.na);
  const Node& n = g.node(id);
  std::string ins;
  for (const auto& t : n.input_types) ins += (ins.empty() ? "" : ", ") + t.shape.str();
  return std::to_string(in_a) + " node(s) in the first graph but " + std::to_string(in_b) +
         " in the second are like " + std::string(from_a ? "first" : "second") + " graph's node " +
         std::to_string(id) + " '" + n.name + "' (" + n.kind_name + ", inputs " + ins +
         " -> " + n.output().shape.str() + ") in their neighbourhood";
}

}  // namespace

std::string isomorphism_mismatch(const Graph& a, const Graph& b) {
  if (a.size() != b.size()) {
    return "node counts differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  }
  const Union u = make_union(a, b);
  std::vector<std::vector<int64_t>> labels(u.total);
  for (size_t v = 0; v < u.total; ++v) labels[v] = label(v < u.na ? a.nodes()[v] : b.nodes()[v - u.na]);
  const Colours colours = rank_signatures(labels);
  if (auto cls = unbalanced_class(u, colours)) {
    return "node labels differ: " + describe_class(a, b, u, colours, *cls);
  }
  Colours refined = sweep_colours(a, b, u, colours);
  refine(u, refined);
  if (auto cls = unbalanced_class(u, refined)) {
    return "edges differ: " + describe_class(a, b, u, refined, *cls);
  }
  if (!search(a, b, u, refined, 0)) {
    return "no bijection preserves every edge (the graphs agree on every local statistic)";
  }
  return "";
}

}  // namespace lightcode::ir
