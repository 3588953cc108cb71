#include "sim/ir/fusion.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <tuple>

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"

namespace lightcode::ir {
namespace {

// A group grows no larger than this (a guard against runaway element-wise regions).
constexpr size_t kMaxMembers = 64;


bool is_elementwise(OpKind k) {
  switch (k) {
    case OpKind::add:
    case OpKind::subtract:
    case OpKind::multiply:
    case OpKind::divide:
    case OpKind::sqrt:
    case OpKind::rsqrt:
    case OpKind::power:
    case OpKind::negative:
    case OpKind::cast:
    case OpKind::equal:
    case OpKind::relu:
    case OpKind::tanh:
    case OpKind::sigmoid:
    case OpKind::less:
    case OpKind::where:
    case OpKind::erf:
    case OpKind::exp:
    case OpKind::max:
      return true;
    default:
      return false;
  }
}

bool is_gemm(OpKind k) {
  return k == OpKind::dense || k == OpKind::matmul || k == OpKind::pack;
}

// What a rule lets a group take in: `forward` judges a consumer of a member, `backward` a
// producer of a member all of whose readers are members. Both see the group so far.
class Region;
using Admit = bool (*)(const Region& region, NodeId candidate);

// A convex group grown from an anchor. A consumer joins when every operand it reads from
// outside cannot be reached from the group (so no path leaves the group and comes back); a
// producer joins when all its readers are members and its outside operands pass the same test.
class Region {
 public:
  Region(const FusionContext& c, std::vector<uint8_t>& flags, std::vector<int32_t>& stamp,
         int32_t& epoch)
      : c_(c), in_(flags), stamp_(stamp), epoch_(epoch) {}
  ~Region() { clear(); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  const Graph& graph() const { return c_.graph; }
  bool has(NodeId id) const { return in_[static_cast<size_t>(id)] != 0; }
  const std::vector<NodeId>& members() const { return members_; }
  size_t count(OpKind k) const {
    return static_cast<size_t>(std::count_if(members_.begin(), members_.end(),
                                             [&](NodeId m) { return c_.graph.node(m).kind == k; }));
  }
  bool any(bool (*pred)(OpKind)) const {
    return std::any_of(members_.begin(), members_.end(),
                       [&](NodeId m) { return pred(c_.graph.node(m).kind); });
  }
  // A member whose only reader is `reader`.
  bool feeds_only(NodeId producer, NodeId reader) const {
    const auto& u = c_.uses[static_cast<size_t>(producer)];
    return u.size() == 1 && u[0].consumer == reader;
  }

  void add(NodeId id) {
    in_[static_cast<size_t>(id)] = 1;
    members_.push_back(id);
    min_rank_ = members_.size() == 1 ? rank(id) : std::min(min_rank_, rank(id));
  }

  // Grows to a fixed point. `chain`: forward only from members with one reader.
  void grow(Admit forward, Admit backward, bool chain) {
    for (bool changed = true; changed && members_.size() < kMaxMembers;) {
      changed = false;
      for (size_t i = 0; i < members_.size() && members_.size() < kMaxMembers; ++i) {
        const NodeId m = members_[i];
        const auto& readers = c_.uses[static_cast<size_t>(m)];
        if (forward != nullptr && (!chain || readers.size() == 1)) {
          for (const Graph::Use& u : readers) {
            if (has(u.consumer) || !forward(*this, u.consumer) ||
                !outside_operands_clear(u.consumer))
              continue;
            add(u.consumer);
            changed = true;
          }
        }
        if (backward == nullptr) continue;
        for (const Input& in : c_.graph.node(m).inputs) {
          const NodeId p = in.node;
          if (has(p) || c_.graph.node(p).kind == OpKind::memory || is_head(p)) continue;
          const auto& pr = c_.uses[static_cast<size_t>(p)];
          const bool all_inside = std::all_of(pr.begin(), pr.end(),
                                              [&](const Graph::Use& x) { return has(x.consumer); });
          if (!all_inside || !backward(*this, p) || !outside_operands_clear(p)) continue;
          add(p);
          changed = true;
        }
      }
    }
  }

  // No path leaves the group and comes back (for a group assembled from parts).
  bool convex() {
    for (NodeId m : members_) {
      if (!outside_operands_clear(m)) return false;
    }
    return true;
  }

  // Drops views at the group's edge: a view whose result only leaves the group is no work.
  void trim_trailing_views() {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 1; i < members_.size(); ++i) {
        const NodeId m = members_[i];
        if (!is_view(c_.graph.node(m).kind) || is_head(m)) continue;
        const auto& u = c_.uses[static_cast<size_t>(m)];
        if (std::any_of(u.begin(), u.end(), [&](const Graph::Use& x) { return has(x.consumer); }))
          continue;
        in_[static_cast<size_t>(m)] = 0;
        members_.erase(members_.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        break;
      }
    }
  }

  // Member results read outside (or graph outputs): the kernel's writes.
  size_t output_count() const {
    size_t n = 0;
    for (NodeId m : members_) {
      const Node& node = c_.graph.node(m);
      for (size_t o = 0; o < node.outputs.size(); ++o)
        n += leaves(m, static_cast<int32_t>(o)) ? 1 : 0;
    }
    return n;
  }

  FusedKernel describe(std::string_view rule, KernelClass cls, NodeId anchor) const {
    FusedKernel k;
    k.cls = cls;
    k.rule = rule;
    k.anchor = anchor;
    k.members = members_;
    std::sort(k.members.begin(), k.members.end());
    std::vector<std::pair<NodeId, int32_t>> seen;
    for (NodeId m : k.members) {
      const Node& node = c_.graph.node(m);
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        const Input& in = node.inputs[i];
        if (has(in.node)) continue;
        const std::pair<NodeId, int32_t> key{in.node, in.output};
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        k.inputs.push_back(node.input_types[i]);
      }
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        if (leaves(m, static_cast<int32_t>(o))) k.outputs.push_back(node.outputs[o]);
      }
      if (is_gemm(node.kind) || is_view(node.kind)) continue;
      int64_t elements = node.outputs.empty() ? 0 : node.output().shape.elements();
      if (!node.input_types.empty())
        elements = std::max(elements, node.input_type(0).shape.elements());
      k.element_ops.push_back(ElementOp{node.kind, elements});
    }
    return k;
  }

 private:
  int32_t rank(NodeId id) const { return c_.rank[static_cast<size_t>(id)]; }
  bool is_head(NodeId id) const {
    const auto& heads = c_.graph.heads();
    return std::any_of(heads.begin(), heads.end(), [&](const Input& h) { return h.node == id; });
  }
  bool leaves(NodeId m, int32_t output) const {
    for (const Input& h : c_.graph.heads()) {
      if (h.node == m && h.output == output) return true;
    }
    const auto& u = c_.uses[static_cast<size_t>(m)];
    return std::any_of(u.begin(), u.end(), [&](const Graph::Use& x) {
      return !has(x.consumer) &&
             c_.graph.node(x.consumer).inputs[static_cast<size_t>(x.position)].output == output;
    });
  }

  // Every operand of `id` from outside the group is a graph input or unreachable from it.
  bool outside_operands_clear(NodeId id) {
    for (const Input& in : c_.graph.node(id).inputs) {
      if (!has(in.node) && reaches_group(in.node)) return false;
    }
    return true;
  }

  // Whether some member reaches `from` (walking producers back; nodes ranked before every
  // member cannot be reached from it).
  bool reaches_group(NodeId from) {
    if (c_.graph.node(from).kind == OpKind::memory || rank(from) < min_rank_) return false;
    ++epoch_;
    std::vector<NodeId> todo{from};
    while (!todo.empty()) {
      const NodeId x = todo.back();
      todo.pop_back();
      for (const Input& in : c_.graph.node(x).inputs) {
        const NodeId p = in.node;
        if (has(p)) return true;
        if (rank(p) < min_rank_ || stamp_[static_cast<size_t>(p)] == epoch_) continue;
        stamp_[static_cast<size_t>(p)] = epoch_;
        todo.push_back(p);
      }
    }
    return false;
  }

  void clear() {
    for (NodeId m : members_) in_[static_cast<size_t>(m)] = 0;
    members_.clear();
  }

  const FusionContext& c_;
  std::vector<uint8_t>& in_;
  std::vector<int32_t>& stamp_;
  int32_t& epoch_;
  std::vector<NodeId> members_;
  int32_t min_rank_ = 0;
};

// Scratch shared by one rule's anchors: membership flags and the reachability stamps.
struct Scratch {
  explicit Scratch(size_t n) : flags(n, 0), stamp(n, 0) {}
  std::vector<uint8_t> flags;
  std::vector<int32_t> stamp;
  int32_t epoch = 0;
};

// ---- the rules -------------------------------------------------------------------------

template <typename Anchor, typename Accept>
void grow_from(const FusionContext& c, std::string_view rule, KernelClass cls, Anchor is_anchor,
               Admit forward, Admit backward, size_t max_outputs, Accept accept,
               std::vector<FusedKernel>& out) {
  Scratch s(c.graph.size());
  for (size_t i = 0; i < c.graph.size(); ++i) {
    const auto id = static_cast<NodeId>(i);
    if (!is_anchor(c, id)) continue;
    // Full growth first; a group with more results than the kernel writes retries as a chain.
    for (const bool chain : {false, true}) {
      Region r(c, s.flags, s.stamp, s.epoch);
      r.add(id);
      r.grow(forward, backward, chain);
      r.trim_trailing_views();
      if (r.members().size() < 2 || r.output_count() > max_outputs) continue;
      if (accept(r)) out.push_back(r.describe(rule, cls, id));
      break;
    }
  }
}

bool elementwise_op(const Region& r, NodeId id) {
  const OpKind k = r.graph().node(id).kind;
  return is_elementwise(k) || is_view(k);
}

void fill_gemm_shape(const Graph& g, FusedKernel& k) {
  const Node& p = g.node(k.anchor);
  const Shape& out = p.output().shape;
  k.n = out.back();
  k.k = p.input_type(0).shape.back();
  if (p.kind == OpKind::matmul && out.rank() >= 3) {
    k.m = out.from_back(2);
    k.batch = out.elements() / std::max<int64_t>(1, k.m * k.n);
  } else {
    k.m = out.elements() / std::max<int64_t>(1, k.n);
    k.batch = 1;
  }
  k.products = 1;
  k.dtype = p.input_type(0).dtype;
}

// GEMM + epilogue: the product and the element-wise ops after it.
void match_gemm_epilogue(const FusionContext& c, std::vector<FusedKernel>& out) {
  const size_t from = out.size();
  grow_from(
      c, "gemm_epilogue", KernelClass::gemm,
      [](const FusionContext& x, NodeId id) { return is_gemm(x.graph.node(id).kind); },
      elementwise_op, nullptr, 1, [](const Region& r) { return r.any(is_elementwise); }, out);
  for (size_t i = from; i < out.size(); ++i) fill_gemm_shape(c.graph, out[i]);
}

// Norms: a mean reduction and the element-wise ops around it.
bool norm_op(const Region& r, NodeId id) {
  const OpKind k = r.graph().node(id).kind;
  return is_elementwise(k) || is_view(k) || k == OpKind::mean;
}
void match_norm(const FusionContext& c, std::vector<FusedKernel>& out) {
  grow_from(
      c, "norm", KernelClass::norm,
      [](const FusionContext& x, NodeId id) { return x.graph.node(id).kind == OpKind::mean; },
      norm_op, norm_op, 1, [](const Region& r) { return r.any(is_elementwise); }, out);
}

// Rotary embedding: rotate_half's concatenate of a negated half, the cos/sin products, and the
// slices and layout change feeding them.
// x * cos + rotate_half(x) * sin: forward as far as the sum, no further (a scaling after it
// belongs to the attention that reads the rotated tensor).
bool rope_forward(const Region& r, NodeId id) {
  const OpKind k = r.graph().node(id).kind;
  return r.count(OpKind::add) == 0 && (k == OpKind::multiply || k == OpKind::add);
}
bool rope_backward(const Region& r, NodeId id) {
  const OpKind k = r.graph().node(id).kind;
  return k == OpKind::multiply || k == OpKind::negative || k == OpKind::slice ||
         k == OpKind::transpose || is_view(k);
}
// The graph inputs a rotary group reads (its cos and sin tables), ascending.
std::vector<NodeId> tables_read(const Graph& g, const FusedKernel& k) {
  std::vector<NodeId> t;
  for (NodeId m : k.members) {
    for (const Input& in : g.node(m).inputs) {
      if (g.node(in.node).kind == OpKind::memory) t.push_back(in.node);
    }
  }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

void match_rope(const FusionContext& c, std::vector<FusedKernel>& out) {
  std::vector<FusedKernel> found;
  grow_from(
      c, "rope", KernelClass::rope,
      [](const FusionContext& x, NodeId id) {
        const Node& n = x.graph.node(id);
        if (n.kind != OpKind::concatenate) return false;
        return std::any_of(n.inputs.begin(), n.inputs.end(), [&](const Input& in) {
          return x.graph.node(in.node).kind == OpKind::negative;
        });
      },
      rope_forward, rope_backward, 1,
      [](const Region& r) { return r.count(OpKind::negative) > 0 && r.count(OpKind::slice) > 0; },
      found);
  // Each rotation alone, and two successive rotations sharing cos/sin tables that
  // neither feeds (q's and k's of one layer) as one kernel, as vLLM's rotary_embedding turns q
  // and k in one launch.
  std::vector<FusedKernel> joint;
  Scratch scratch(c.graph.size());
  for (size_t i = 0; i + 1 < found.size(); ++i) {
    const std::vector<NodeId> a = tables_read(c.graph, found[i]), b = tables_read(c.graph, found[i + 1]);
    std::vector<NodeId> shared;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(shared));
    if (shared.empty()) continue;
    Region r(c, scratch.flags, scratch.stamp, scratch.epoch);
    for (const FusedKernel* part : {&found[i], &found[i + 1]}) {
      for (NodeId m : part->members) r.add(m);
    }
    if (r.convex()) joint.push_back(r.describe("rope", KernelClass::rope, found[i].anchor));
  }
  for (FusedKernel& k : found) out.push_back(std::move(k));
  for (FusedKernel& k : joint) out.push_back(std::move(k));
}

// Activations: a transcendental and the element-wise ops around it (SiLU * up, GELU).
void match_activation(const FusionContext& c, std::vector<FusedKernel>& out) {
  grow_from(
      c, "activation", KernelClass::activation,
      [](const FusionContext& x, NodeId id) {
        const OpKind k = x.graph.node(id).kind;
        return k == OpKind::sigmoid || k == OpKind::tanh || k == OpKind::erf;
      },
      elementwise_op, elementwise_op, 1, [](const Region&) { return true; }, out);
}

// Attention: from the scores product along its element-wise chain through the softmax to
// the context product (and the layout change after it); backwards the scaling, layout and
// mask slicing of its operands.
bool attention_forward(const Region& r, NodeId id) {
  const Node& n = r.graph().node(id);
  const bool has_context = r.count(OpKind::matmul) >= 2;
  if (has_context) return n.kind == OpKind::transpose || is_view(n.kind);
  if (n.kind == OpKind::matmul) return r.count(OpKind::softmax) == 1 && r.has(n.inputs[0].node);
  return is_elementwise(n.kind) || is_view(n.kind) || n.kind == OpKind::softmax;
}
bool attention_backward(const Region& r, NodeId id) {
  const Node& n = r.graph().node(id);
  if (is_view(n.kind) || n.kind == OpKind::transpose || n.kind == OpKind::slice ||
      n.kind == OpKind::cast)
    return true;
  // A KV cache (a graph input) joined with the new keys or values, read only here: a paged
  // kernel reads the cache blocks and the new rows where they lie, never a joined copy. (A
  // join that is also a graph output, Hugging Face's returned cache, is never taken in: growth
  // stops at graph outputs.)
  if (n.kind == OpKind::concatenate) {
    return std::any_of(n.inputs.begin(), n.inputs.end(), [&](const Input& in) {
      return r.graph().node(in.node).kind == OpKind::memory;
    });
  }
  if (n.kind != OpKind::multiply && n.kind != OpKind::divide) return false;
  // A scaling: one operand is a graph input (the scale constant).
  return std::any_of(n.inputs.begin(), n.inputs.end(), [&](const Input& in) {
    return r.graph().node(in.node).kind == OpKind::memory;
  });
}
void match_attention(const FusionContext& c, std::vector<FusedKernel>& out) {
  std::vector<FusedKernel> found;
  grow_from(
      c, "attention", KernelClass::attention,
      [](const FusionContext& x, NodeId id) {
        const Node& n = x.graph.node(id);
        return n.kind == OpKind::matmul && n.output().shape.rank() >= 2;
      },
      attention_forward, attention_backward, 1,
      [](const Region& r) { return r.count(OpKind::matmul) == 2 && r.count(OpKind::softmax) == 1; },
      found);
  for (FusedKernel& k : found) {
    const Node& scores = c.graph.node(k.anchor);
    const Shape& s = scores.output().shape;
    k.n = s.back();
    k.m = s.from_back(2);
    k.batch = s.elements() / std::max<int64_t>(1, k.m * k.n);
    k.k = scores.input_type(0).shape.back();
    k.products = 2;
    k.dtype = scores.input_type(0).dtype;
    // A mask operand of [.., m, n] with more than one query: taken as causal (fusion.hpp).
    for (const TensorType& t : k.inputs) {
      if (k.m > 1 && t.shape.rank() >= 2 && t.shape.back() == k.n && t.shape.from_back(2) == k.m)
        k.causal = true;
    }
    out.push_back(std::move(k));
  }
}

// Horizontal GEMMs: dense ops reading the same tensor (through views) with equal K and dtype.
void match_horizontal(const FusionContext& c, std::vector<FusedKernel>& out) {
  const Graph& g = c.graph;
  struct Reader {
    NodeId dense;
    std::vector<NodeId> views;  // between the shared tensor and the dense, each read by it alone
  };
  std::map<std::tuple<NodeId, int32_t, int64_t, int>, std::vector<Reader>> by_source;
  std::vector<std::tuple<NodeId, int32_t, int64_t, int>> order;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind != OpKind::dense || n.inputs.size() < 2) continue;
    Reader r{static_cast<NodeId>(i), {}};
    Input src = n.inputs[0];
    while (is_view(g.node(src.node).kind) && c.uses[static_cast<size_t>(src.node)].size() == 1) {
      r.views.push_back(src.node);
      src = g.node(src.node).inputs[0];
    }
    const auto key = std::make_tuple(src.node, src.output, n.input_type(0).shape.back(),
                                     static_cast<int>(n.input_type(0).dtype));
    auto [it, fresh] = by_source.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.push_back(std::move(r));
  }
  Scratch s(g.size());
  for (const auto& key : order) {
    const auto& readers = by_source[key];
    if (readers.size() < 2) continue;
    Region r(c, s.flags, s.stamp, s.epoch);
    int64_t n_sum = 0;
    for (const Reader& x : readers) {
      for (NodeId v : x.views) r.add(v);
      r.add(x.dense);
      n_sum += g.node(x.dense).output().shape.back();
    }
    FusedKernel k = r.describe("horizontal_gemm", KernelClass::gemm, readers.front().dense);
    const Node& first = g.node(readers.front().dense);
    k.k = first.input_type(0).shape.back();
    k.m = first.output().shape.elements() / std::max<int64_t>(1, first.output().shape.back());
    k.n = n_sum;
    k.batch = 1;
    k.products = static_cast<int64_t>(readers.size());
    k.dtype = first.input_type(0).dtype;
    out.push_back(std::move(k));
  }
}

}  // namespace

std::string_view kernel_class_name(KernelClass c) {
  switch (c) {
    case KernelClass::gemm:
      return "gemm";
    case KernelClass::attention:
      return "attention";
    case KernelClass::norm:
      return "norm";
    case KernelClass::rope:
      return "rope";
    case KernelClass::activation:
      return "activation";
  }
  return "?";
}

const std::vector<FusionRule>& fusion_rules() {
  static const std::vector<FusionRule> rules{
      {"gemm_epilogue",
       "a matrix product and the element-wise ops after it (bias, residual add, activation)",
       KernelClass::gemm, match_gemm_epilogue},
      {"horizontal_gemm", "dense ops reading one tensor with equal K (q/k/v, gate/up) as one GEMM",
       KernelClass::gemm, match_horizontal},
      {"norm",
       "LayerNorm / RMSNorm: a mean reduction and the element-wise ops around it, casts included",
       KernelClass::norm, match_norm},
      {"rope",
       "rotary embedding: rotate_half, the cos/sin products and the layout change before them",
       KernelClass::rope, match_rope},
      {"activation", "SiLU * up, GELU: a transcendental and the element-wise ops around it",
       KernelClass::activation, match_activation},
      {"attention", "scores, scale, mask, softmax and context as one FlashAttention-style kernel",
       KernelClass::attention, match_attention},
  };
  return rules;
}

const FusionRule& fusion_rule_named(std::string_view name) {
  return named_in(fusion_rules(), name, "fusion rule");
}

std::vector<FusedKernel> match_fusions(const Graph& graph,
                                       const std::vector<const FusionRule*>& rules) {
  std::vector<FusedKernel> all;
  if (rules.empty()) return all;
  const auto uses = graph.consumers();
  std::vector<int32_t> rank(graph.size(), 0);
  const std::vector<NodeId> order = graph.topological_order();
  for (size_t i = 0; i < order.size(); ++i)
    rank[static_cast<size_t>(order[i])] = static_cast<int32_t>(i);
  const FusionContext c{graph, uses, rank};
  for (const FusionRule* rule : rules) {
    rule->match(c, all);
  }
  // Equal member sets: the first rule's group stays.
  std::vector<FusedKernel> out;
  std::map<std::vector<NodeId>, bool> seen;
  for (FusedKernel& k : all) {
    if (seen.emplace(k.members, true).second) out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const FusedKernel& a, const FusedKernel& b) {
    return a.members.front() < b.members.front();
  });
  return out;
}

}  // namespace lightcode::ir
