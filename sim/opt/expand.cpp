#include "sim/opt/expand.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/opt/photonic_expansion.hpp"

namespace lightcode::opt {
namespace {

class Expander {
 public:
  Expander(const StackedGraph& stacks, const Partition& part, const Placement& placement)
      : stacks_(stacks), graph_(stacks.graph()), system_(stacks.system()), part_(part),
        placement_(placement), profile_(system_.profile()),
        start_unit_(system_.role_unit(hw::Role::start)),
        task_of_(graph_.size(), -1), item_at_(graph_.size(), -1), list_position_(graph_.size(), 0) {}

  TaskGraph run() {
    out_.subgraphs = part_.count;
    out_.tasks.reserve(graph_.size() + static_cast<size_t>(part_.count));  // expansion adds more
    for (int32_t s = 0; s < part_.count; ++s) {
      subgraph_ = s;
      start_ = -1;
      if (profile_.start_tasks()) start_ = add_start(s);
      copy_ = -1;
      enter_node_list(s);
      const std::vector<ir::NodeId>& members = part_.members[static_cast<size_t>(s)];
      const bool fused = std::any_of(members.begin(), members.end(), [&](ir::NodeId id) { return chosen(id).group >= 0; });
      if (fused) {
        emit_with_groups(members);
        continue;
      }
      for (ir::NodeId id : members) {
        if (id == part_.head[static_cast<size_t>(s)]) {
          copy_ = emit_repeat(id);
        } else {
          emit(id);
        }
      }
    }
    return std::move(out_);
  }

 private:
  // Task::rank. With a node list (the original's partition): tier 0 for the split, products
  // and merge of a photonic product (the original's expansion puts them before the rest of
  // the list), tier 1 for `start` and the listed ops, tier 2 for what the list leaves out
  // (graph inputs and outputs); then the position in the list; then the part of the expansion.
  static constexpr int kTierShift = 48, kPositionShift = 24;
  void enter_node_list(int32_t s) {
    if (part_.node_list.empty()) return;
    if (listed_) {
      for (ir::NodeId id : *listed_) list_position_[static_cast<size_t>(id)] = 0;
    }
    listed_ = &part_.node_list[static_cast<size_t>(s)];
    for (size_t i = 0; i < listed_->size(); ++i) list_position_[static_cast<size_t>((*listed_)[i])] = static_cast<int64_t>(i) + 1;
  }
  // The rank of node `id`'s task (`part` of an expansion: 0 split, 1.. products, last merge).
  int64_t rank_of(ir::NodeId id, bool expanded = false, int64_t part = 0) const {
    const int64_t position = id < 0 ? 0 : list_position_[static_cast<size_t>(id)];  // id < 0: start
    const int64_t tier = expanded ? 0 : (id < 0 || position > 0) ? 1 : 2;
    return (tier << kTierShift) + ((position > 0 ? position : std::max<int64_t>(id, 0)) << kPositionShift) + part;
  }

  TaskId add_start(int32_t s) {
    Task t;
    t.name = "start" + std::to_string(s);
    t.kind = ir::OpKind::start;
    t.kind_name = "start";
    t.unit = start_unit_;
    const ir::Node node = synthetic(ir::OpKind::start, t.name, {}, {ir::TensorType{ir::Shape{}, ir::DType::float32}});
    t.cost = system_.model(start_unit_).estimate(node, 0);
    t.subgraph = s;
    t.outputs = node.outputs;
    t.rank = rank_of(-1);
    return push(std::move(t));
  }

  TaskId push(Task t) {
    if (static_cast<int64_t>(out_.tasks.size()) >= limits::kTasks.value) {
      throw Error(SourcePlace{graph_.source(), 0, 0, ""}, "the placed graph expands into more than " +
                                                              std::to_string(limits::kTasks.value) + " tasks (" +
                                                              std::string(limits::kTasks.name) + ")");
    }
    if (part_.node_list.empty()) t.rank = static_cast<int64_t>(out_.tasks.size());
    out_.tasks.push_back(std::move(t));
    return static_cast<TaskId>(out_.tasks.size() - 1);
  }

  const Candidate& chosen(ir::NodeId id) const {
    return stacks_.candidate(id, placement_.choice[static_cast<size_t>(id)]);
  }

  // The inputs of `id` as they arrive at `unit`.
  std::vector<TaskInput> inputs_at(ir::NodeId id, hw::UnitType unit) const {
    const ir::Node& node = graph_.node(id);
    std::vector<TaskInput> ins;
    ins.reserve(node.inputs.size() + 1);
    bool inside = false;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const ir::NodeId from = node.inputs[k].node;
      // A cut op this subgraph repeats feeds its consumers here from its second run.
      const bool repeated = from == part_.head[static_cast<size_t>(subgraph_)] && copy_ >= 0;
      const TaskId producer = repeated ? copy_ : task_of_[static_cast<size_t>(from)];
      const hw::UnitType from_unit = out_.tasks[static_cast<size_t>(producer)].unit;
      ins.push_back(TaskInput{producer, stacks_.edge_cost(id, static_cast<int>(k), from_unit, unit)});
      inside = inside || repeated ||
               (!part_.crosses(id, static_cast<int>(k)) && part_.subgraph_of[static_cast<size_t>(from)] == subgraph_ &&
                graph_.node(from).kind != ir::OpKind::memory);
    }
    if (start_ >= 0 && !inside && node.kind != ir::OpKind::memory) ins.push_back(TaskInput{start_, hw::Cost{}});
    return ins;
  }

  void emit(ir::NodeId id) {
    const ir::Node& node = graph_.node(id);
    const Candidate& c = chosen(id);
    const bool outside = part_.outside[static_cast<size_t>(id)] != 0;
    if (!outside && ir::is_matrix_product(node.kind) && system_.model(c.unit).capabilities().photonic) {
      emit_photonic(id, c);
      return;
    }
    Task t;
    t.name = node.name;
    t.kind = node.kind;
    t.kind_name = node.kind_name;
    t.node = id;
    t.unit = c.unit;
    t.algorithm = c.algorithm;
    t.cost = c.cost;
    t.subgraph = subgraph_;
    t.input_types = node.input_types;
    t.outputs = node.outputs;
    t.rank = rank_of(id);
    if (outside) {
      t.off_unit = true;  // a graph output of the original's partition: on no unit, no time
      t.cost.time = Time::zero();
    }
    t.inputs = inputs_at(id, t.unit);
    task_of_[static_cast<size_t>(id)] = push(std::move(t));
  }

  // A subgraph with chosen fused groups: each group is one item, every other op one; items in
  // a topological order of the contracted subgraph, ties to the smallest member id (which
  // without groups is the id order itself).
  void emit_with_groups(const std::vector<ir::NodeId>& members) {
    std::vector<std::vector<ir::NodeId>> items;
    std::vector<int32_t> item_of_group(stacks_.groups().size(), -1);
    for (ir::NodeId id : members) {
      if (id == part_.head[static_cast<size_t>(subgraph_)]) {
        throw Error("internal: fused groups in a subgraph that repeats its cut op");
      }
      const int32_t g = chosen(id).group;
      int32_t item = g >= 0 ? item_of_group[static_cast<size_t>(g)] : -1;
      if (item < 0) {
        item = static_cast<int32_t>(items.size());
        items.emplace_back();
        if (g >= 0) item_of_group[static_cast<size_t>(g)] = item;
      }
      items[static_cast<size_t>(item)].push_back(id);
      item_at_[static_cast<size_t>(id)] = item;
    }
    // Kahn over items: an item waits for the items of this subgraph its members read.
    std::vector<std::vector<int32_t>> readers(items.size());
    std::vector<int32_t> waiting(items.size(), 0);
    for (size_t i = 0; i < items.size(); ++i) {
      std::vector<int32_t> from;
      for (ir::NodeId id : items[i]) {
        for (const ir::Input& in : graph_.node(id).inputs) {
          if (part_.subgraph_of[static_cast<size_t>(in.node)] != subgraph_) continue;
          const int32_t p = item_at_[static_cast<size_t>(in.node)];
          if (p != static_cast<int32_t>(i) && std::find(from.begin(), from.end(), p) == from.end()) from.push_back(p);
        }
      }
      for (int32_t p : from) readers[static_cast<size_t>(p)].push_back(static_cast<int32_t>(i));
      waiting[i] = static_cast<int32_t>(from.size());
    }
    using Ready = std::pair<ir::NodeId, int32_t>;  // (smallest member id, item)
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
    for (size_t i = 0; i < items.size(); ++i) {
      if (waiting[i] == 0) ready.push({items[i].front(), static_cast<int32_t>(i)});
    }
    size_t emitted = 0;
    while (!ready.empty()) {
      const int32_t i = ready.top().second;
      ready.pop();
      ++emitted;
      const std::vector<ir::NodeId>& item = items[static_cast<size_t>(i)];
      if (chosen(item.front()).group >= 0) {
        emit_group(chosen(item.front()));
      } else {
        emit(item.front());
      }
      for (int32_t r : readers[static_cast<size_t>(i)]) {
        if (--waiting[static_cast<size_t>(r)] == 0) ready.push({items[static_cast<size_t>(r)].front(), r});
      }
    }
    for (ir::NodeId id : members) item_at_[static_cast<size_t>(id)] = -1;
    if (emitted != items.size()) {
      throw Error(SourcePlace{graph_.source(), 0, 0, ""},
                  "the chosen fused kernels depend on each other in a cycle (subgraph " + std::to_string(subgraph_) + ")");
    }
  }

  // One task for the fused group of candidate `c`: the group's kernel on c's unit; its inputs
  // are the members' reads from outside the group, each tensor once.
  void emit_group(const Candidate& c) {
    const FusedStack& fs = stacks_.group(c.group);
    const ir::FusedKernel& k = fs.kernel;
    const ir::Node& anchor = graph_.node(k.anchor);
    Task t;
    t.name = anchor.name + "/" + std::string(k.rule);
    t.kind = anchor.kind;
    t.kind_name = std::string(k.rule);
    t.node = k.anchor;
    t.unit = c.unit;
    t.cost = stacks_.kernel_cost(c.group, c.unit);
    t.subgraph = subgraph_;
    t.input_types = k.inputs;
    t.outputs = k.outputs;
    t.covers = k.members;
    t.fused = static_cast<int32_t>(out_.kernels.size());
    for (ir::NodeId m : k.members) {
      const ir::Node& node = graph_.node(m);
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        const ir::NodeId from = node.inputs[i].node;
        if (fs.has(from) || stacks_.shared_read(c.group, m, static_cast<int>(i))) continue;
        const TaskId producer = task_of_[static_cast<size_t>(from)];
        const hw::UnitType from_unit = out_.tasks[static_cast<size_t>(producer)].unit;
        t.inputs.push_back(TaskInput{producer, stacks_.edge_cost(m, static_cast<int>(i), from_unit, c.unit)});
      }
    }
    out_.kernels.push_back(k);
    const TaskId id = push(std::move(t));
    for (ir::NodeId m : k.members) task_of_[static_cast<size_t>(m)] = id;
  }

  // The second run of the cut op `id` that ended the previous subgraph: its time on its unit,
  // after this subgraph's start; no energy, not a node.
  TaskId emit_repeat(ir::NodeId id) {
    const ir::Node& node = graph_.node(id);
    const Candidate& c = chosen(id);
    Task t;
    t.name = node.name + "/again";
    t.kind = node.kind;
    t.kind_name = node.kind_name;
    t.node = id;
    t.unit = c.unit;
    t.algorithm = c.algorithm;
    t.cost.time = c.cost.time;
    t.subgraph = subgraph_;
    t.input_types = node.input_types;
    t.outputs = node.outputs;
    t.repeat = true;
    t.rank = rank_of(id);
    if (start_ >= 0) t.inputs.push_back(TaskInput{start_, hw::Cost{}});
    return push(std::move(t));
  }

  // A task that implements part of node `id` (its expansion), named "<node name><suffix>".
  // `part` orders it within the expansion (Task::rank).
  Task derived(ir::NodeId id, const std::string& suffix, const ir::Node& op, hw::UnitType unit,
               hw::AlgorithmId algorithm, const hw::Cost& cost, std::vector<TaskInput> inputs, int64_t part) const {
    Task t;
    t.name = graph_.node(id).name + suffix;
    t.kind = op.kind;
    t.kind_name = op.kind_name;
    t.node = id;
    t.unit = unit;
    t.algorithm = algorithm;
    t.cost = cost;
    t.subgraph = subgraph_;
    t.input_types = op.input_types;
    t.outputs = op.outputs;
    t.inputs = std::move(inputs);
    t.rank = rank_of(id, /*expanded=*/true, part);
    return t;
  }

  // The split, products and merge of photonic_expansion.hpp, as tasks.
  void emit_photonic(ir::NodeId id, const Candidate& c) {
    const ir::Node& node = graph_.node(id);
    const PhotonicExpansion x = plan_photonic_expansion(system_, node, c.unit, c.algorithm);
    if (x.products > limits::kTasks.value - static_cast<int64_t>(out_.tasks.size())) {
      throw Error(SourcePlace{graph_.source(), 0, 0, ""},
                  "node '" + node.name + "' expands into " + std::to_string(x.products) +
                      " photonic products: above the limit of " + std::to_string(limits::kTasks.value) + " tasks (" +
                      std::string(limits::kTasks.name) + ")");
    }
    const TaskId split_id =
        push(derived(id, "/split", x.split, x.staging, 0, x.split_cost, inputs_at(id, x.staging), 0));
    std::vector<TaskInput> products;
    for (int64_t i = 0; i < x.products; ++i) {
      const TaskId p = push(derived(id, "/mm" + std::to_string(i), x.product, c.unit, c.algorithm, x.product_cost,
                                    {TaskInput{split_id, x.operands_in}}, i + 1));
      products.push_back(TaskInput{p, x.result_out});
    }
    task_of_[static_cast<size_t>(id)] =
        push(derived(id, "/merge", x.merge, x.staging, 0, x.merge_cost, std::move(products), x.products + 1));
  }

  const StackedGraph& stacks_;
  const ir::Graph& graph_;
  const hw::System& system_;
  const Partition& part_;
  const Placement& placement_;
  const hw::Profile& profile_;
  const hw::UnitType start_unit_;
  std::vector<TaskId> task_of_;
  std::vector<int32_t> item_at_;  // emit_with_groups' item of each node of the subgraph
  TaskGraph out_;
  int32_t subgraph_ = 0;
  TaskId start_ = -1;
  TaskId copy_ = -1;  // this subgraph's second run of the previous cut op
  const std::vector<ir::NodeId>* listed_ = nullptr;  // the current subgraph's node list
  std::vector<int64_t> list_position_;    // per node: 1 + its place in listed_, 0 when not listed
};

}  // namespace

TaskGraph expand(const StackedGraph& stacks, const Partition& part, const Placement& placement) {
  return Expander(stacks, part, placement).run();
}

}  // namespace lightcode::opt
