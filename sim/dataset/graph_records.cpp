// The records of a point's placed graphs (records.hpp): /graphs, /ops, /edges, /placement and
// /alternatives rows from the point's task graph, timeline and report, task by task.
#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "hw_models/registry.hpp"
#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/dataset/records.hpp"
#include "sim/ir/metrics.hpp"
#include "sim/opt/objective.hpp"

namespace lightcode::dataset::detail {
namespace {

std::string shapes_text(const std::vector<ir::TensorType>& types) {
  std::string s;
  for (const ir::TensorType& t : types) s += (s.empty() ? "" : " ") + t.shape.str();
  return s;
}

int64_t elements(const std::vector<ir::TensorType>& types) {
  return ir::total_elements(types);
}
int64_t bytes(const std::vector<ir::TensorType>& types) {
  return ir::total_bytes(types);
}

// A task's arithmetic: MACs and FLOPs as sim/ir/metrics.hpp counts the ops it runs, and the
// matrix-product dimensions where it is one (NaN otherwise).
struct Work {
  int64_t macs = 0, flops = 0;
  double batch = kNaN, m = kNaN, n = kNaN, k = kNaN;
};

int64_t element_flops(ir::OpKind kind, int64_t count) {
  // A fused reduction's `elements` are those it reads: one add each (its few divides aside).
  if (kind == ir::OpKind::mean || kind == ir::OpKind::sum) return count;
  ir::Node n;
  n.kind = kind;
  n.outputs = {ir::TensorType{ir::Shape{count}, ir::DType::float32}};
  n.input_types = n.outputs;
  return ir::node_flops(n);
}

Work task_work(const opt::Task& t, const opt::TaskGraph& graph) {
  Work w;
  const auto what = [&t] { return "the arithmetic of task " + t.name; };
  if (t.fused >= 0) {
    const ir::FusedKernel& kernel = graph.kernels.at(static_cast<size_t>(t.fused));
    if (kernel.cls == ir::KernelClass::gemm || kernel.cls == ir::KernelClass::attention) {
      const int64_t one = checked_mul(checked_mul(kernel.batch, kernel.m, what),
                                      checked_mul(kernel.n, kernel.k, what), what);
      w.macs = kernel.cls == ir::KernelClass::attention ? checked_mul(2, one, what)
                                                        : one;  // scores and context
      w.batch = static_cast<double>(kernel.batch);
      w.m = static_cast<double>(kernel.m);
      w.n = static_cast<double>(kernel.n);
      w.k = static_cast<double>(kernel.k);
    }
    w.flops = checked_mul(2, w.macs, what);
    for (const ir::ElementOp& e : kernel.element_ops)
      w.flops = checked_add(w.flops, element_flops(e.kind, e.elements), what);
    return w;
  }
  ir::Node n;
  n.kind = t.kind;
  n.name = t.name;
  n.input_types = t.input_types;
  n.outputs = t.outputs;
  w.macs = ir::node_macs(n);
  w.flops = ir::node_flops(n);
  if (ir::is_matrix_product(t.kind) && !t.input_types.empty() && !t.outputs.empty()) {
    const ir::Shape& out = t.outputs[0].shape;
    const int64_t rows = out.from_back(2), columns = out.from_back(1);
    w.k = static_cast<double>(t.input_types[0].shape.back());
    w.m = static_cast<double>(rows);
    w.n = static_cast<double>(columns);
    w.batch =
        rows > 0 && columns > 0 ? static_cast<double>(out.elements() / (rows * columns)) : kNaN;
  }
  return w;
}

struct UnitUse {
  std::map<int32_t, bool> instances;
  int64_t tasks = 0;
  Time busy;
  double energy_pj = 0.0;
};

struct GraphFacts {
  size_t begin = 0, end = 0;  // its tasks
  Time start, finish;         // on the point's timeline
};

std::vector<GraphFacts> graph_ranges(const sweep::PointRun& run) {
  const auto& rows = run.result.tasks;
  std::vector<GraphFacts> graphs;
  Time finish;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i == 0 || rows[i].step != rows[i - 1].step) {
      if (!graphs.empty()) graphs.back().end = i;
      graphs.push_back(GraphFacts{i, i, finish, finish});
    }
    graphs.back().finish = std::max(graphs.back().finish, run.schedule.slots[i].end);
    finish =
        graphs.back().finish;  // a graph starts when the one before it ends (graph_sequence.hpp)
  }
  if (!graphs.empty()) graphs.back().end = rows.size();
  return graphs;
}

void add_alternatives(const sweep::PointSpec& point, const sweep::PointRun& run, int64_t graph,
                      PointRecords& out) {
  namespace k = alternatives_col;
  const opt::ObjectiveInfo& objective = opt::objective_named(point.objective);
  const auto& front = run.result.pareto;
  size_t chosen = 0;
  for (size_t i = 1; i < front.size(); ++i) {
    if (objective.score(front[i].makespan, front[i].energy_pj) <
        objective.score(front[chosen].makespan, front[chosen].energy_pj))
      chosen = i;
  }
  Rows& rows = out.at(Table::alternatives);
  for (size_t i = 0; i < front.size(); ++i) {
    const size_t r = rows.add();
    rows.set_i64(r, k::graph_id, graph);
    rows.set_i32(r, k::rank, static_cast<int32_t>(i));
    rows.set_text(r, k::origin, front[i].origin);
    rows.set_i64(r, k::makespan_ps, front[i].makespan.count_ps());
    rows.set_f64(r, k::energy_pj, front[i].energy_pj);
    rows.set_f64(r, k::edp_s_pj, front[i].makespan.seconds() * front[i].energy_pj);
    rows.set_i32(r, k::chosen, i == chosen ? 1 : 0);
  }
}

}  // namespace

void add_graph_records(const sweep::PointSpec& point, const sweep::PointRun& run,
                       const SystemEntry& entry, const PointLabels& labels,
                       const RecordContext& context, PointRecords& out) {
  const auto& tasks = run.tasks.tasks;
  const auto& reported = run.result.tasks;
  if (tasks.size() != reported.size() || run.schedule.slots.size() != tasks.size()) {
    throw std::logic_error("point " + point.id +
                           ": its tasks, rows and timeline differ in length (every_task not set?)");
  }
  const hw::System& system = *entry.system;
  const SystemDescriptor& descriptor = entry.descriptor;
  const results::PointSummary& sum = run.result.summary;
  const bool searched = hw::profile_named(point.profile).places_with_schedule();
  const std::string split_product = sum.split.substr(0, sum.split.find(": "));
  const std::vector<GraphFacts> graphs = graph_ranges(run);
  const bool single = graphs.size() == 1;
  Rows& ops = out.at(Table::ops);
  Rows& edges = out.at(Table::edges);
  ops.reserve(tasks.size());
  for (size_t g = 0; g < graphs.size(); ++g) {
    const GraphFacts& facts = graphs[g];
    const auto graph_id = static_cast<int64_t>(out.at(Table::graphs).size());
    const int32_t step = reported[facts.begin].step;
    const Time makespan = facts.finish - facts.start;
    std::map<hw::UnitType, UnitUse> units;
    double dynamic_pj = 0.0;
    int64_t nodes = 0, macs = 0, flops = 0;
    for (size_t i = facts.begin; i < facts.end; ++i) {
      namespace k = ops_col;
      const opt::Task& t = tasks[i];
      const sched::Slot& slot = run.schedule.slots[i];
      const UnitDescriptor& unit = descriptor.units.at(static_cast<size_t>(t.unit));
      const Work w = task_work(t, run.tasks);
      Time transfer;
      double transfer_pj = 0.0;
      int64_t transfer_bytes = 0;
      dynamic_pj += t.cost.energy.picojoules();
      for (const opt::TaskInput& in : t.inputs) {
        transfer = transfer.plus(in.transfer.time, "a task's input transfers");
        transfer_pj += in.transfer.energy.picojoules();
        transfer_bytes =
            checked_add(transfer_bytes, in.transfer.bytes_read, "a task's input transfer bytes");
        dynamic_pj += in.transfer.energy.picojoules();
        namespace e = edges_col;
        const size_t er = edges.add();
        const auto producer = static_cast<size_t>(in.producer);
        edges.set_i64(er, e::graph_id, graph_id);
        edges.set_i32(er, e::src, static_cast<int32_t>(producer - facts.begin));
        edges.set_i32(er, e::dst, static_cast<int32_t>(i - facts.begin));
        edges.set_text(er, e::src_hardware, system.unit(tasks.at(producer).unit).name);
        edges.set_text(er, e::dst_hardware, unit.unit);
        edges.set_i64(er, e::bytes, in.transfer.bytes_read);
        edges.set_i64(er, e::transfer_ps, in.transfer.time.count_ps());
        edges.set_f64(er, e::transfer_energy_pj, in.transfer.energy.picojoules());
      }
      if (t.kind != ir::OpKind::start && !t.repeat) {
        ++nodes;
        macs = checked_add(macs, w.macs, "a graph's MACs");
        flops = checked_add(flops, w.flops, "a graph's FLOPs");
      }
      UnitUse& use = units[t.unit];
      use.instances[slot.instance] = true;
      ++use.tasks;
      use.busy = use.busy.plus(slot.end - slot.start, "a unit's busy time");
      use.energy_pj += t.cost.energy.picojoules();

      const size_t r = ops.add();
      ops.set_i64(r, k::record_id, static_cast<int64_t>(r));
      ops.set_i64(r, k::graph_id, graph_id);
      ops.set_i64(r, k::point, static_cast<int64_t>(out.point));
      ops.set_i32(r, k::task, static_cast<int32_t>(i - facts.begin));
      ops.set_i32(r, k::step, step);
      ops.set_text(r, k::name, t.name);
      ops.set_text(r, k::kind, t.kind_name);
      ops.set_i32(r, k::node,
                  t.fused >= 0 ? run.tasks.kernels[static_cast<size_t>(t.fused)].anchor : t.node);
      ops.set_i32(r, k::fused, t.fused >= 0 ? 1 : 0);
      ops.set_i32(r, k::covers,
                  t.fused >= 0 ? static_cast<int32_t>(t.covers.size())
                  : t.node < 0 ? 0
                               : 1);
      if (t.fused >= 0) {
        const ir::FusedKernel& kernel = run.tasks.kernels[static_cast<size_t>(t.fused)];
        ops.set_text(r, k::kernel_class, ir::kernel_class_name(kernel.cls));
        ops.set_text(r, k::fusion_rule, kernel.rule);
      }
      ops.set_i32(r, k::inputs, static_cast<int32_t>(t.input_types.size()));
      ops.set_text(r, k::input_shapes, shapes_text(t.input_types));
      ops.set_text(r, k::output_shapes, shapes_text(t.outputs));
      const ir::TensorType* first = !t.input_types.empty() ? &t.input_types[0]
                                    : !t.outputs.empty()   ? &t.outputs[0]
                                                           : nullptr;
      if (first) ops.set_text(r, k::dtype, ir::dtype_name(first->dtype));
      if (!t.outputs.empty()) ops.set_text(r, k::output_dtype, ir::dtype_name(t.outputs[0].dtype));
      ops.set_i64(r, k::input_elements, elements(t.input_types));
      ops.set_i64(r, k::output_elements, elements(t.outputs));
      ops.set_i64(r, k::input_bytes, bytes(t.input_types));
      ops.set_i64(r, k::output_bytes, bytes(t.outputs));
      ops.set_f64(r, k::batch, w.batch);
      ops.set_f64(r, k::m, w.m);
      ops.set_f64(r, k::n, w.n);
      ops.set_f64(r, k::k, w.k);
      ops.set_i64(r, k::macs, w.macs);
      ops.set_i64(r, k::flops, w.flops);
      ops.set_text(r, k::hardware, unit.unit);
      ops.set_text(r, k::hardware_family, unit.family);
      ops.set_text(r, k::hardware_id, unit.id);
      ops.set_i32(r, k::instance, slot.instance);
      ops.set_text(r, k::algorithm, system.model(t.unit).algorithm_name(t.algorithm));
      ops.set_text(r, k::bound, hw::bound_name(t.cost.bound));
      ops.set_i64(r, k::time_ps, t.cost.time.count_ps());
      ops.set_f64(r, k::time_s, t.cost.time.seconds());
      ops.set_i64(r, k::start_ps, (slot.start - facts.start).count_ps());
      ops.set_i64(r, k::end_ps, (slot.end - facts.start).count_ps());
      ops.set_f64(r, k::energy_pj, t.cost.energy.picojoules());
      ops.set_f64(r, k::conversion_energy_pj, t.cost.conversion_energy.picojoules());
      ops.set_i64(r, k::bytes_read, t.cost.bytes_read);
      ops.set_i64(r, k::bytes_written, t.cost.bytes_written);
      ops.set_i64(r, k::input_transfer_ps, transfer.count_ps());
      ops.set_f64(r, k::input_transfer_energy_pj, transfer_pj);
      ops.set_i64(r, k::input_transfer_bytes, transfer_bytes);
      ops.set_i32(r, k::subgraph, t.subgraph);
      ops.set_i32(r, k::repeat, t.repeat ? 1 : 0);
      ops.set_i32(r, k::off_unit, t.off_unit ? 1 : 0);
      const bool part =
          (single || g == 0) && !split_product.empty() && t.name.rfind(split_product + "/", 0) == 0;
      ops.set_i32(r, k::split_part, part ? 1 : 0);
      ops.set_text(r, k::model, labels.model_name);
      ops.set_text(r, k::family, labels.family);
      ops.set_text(r, k::split, labels.split);
    }

    // The placement summary, unit type by unit type.
    std::string placement;
    for (const auto& [type, use] : units) {
      namespace k = placement_col;
      const UnitDescriptor& unit = descriptor.units.at(static_cast<size_t>(type));
      Rows& rows = out.at(Table::placement);
      const size_t r = rows.add();
      const auto instances = static_cast<int64_t>(use.instances.size());
      rows.set_i64(r, k::graph_id, graph_id);
      rows.set_text(r, k::hardware, unit.unit);
      rows.set_text(r, k::hardware_family, unit.family);
      rows.set_text(r, k::hardware_id, unit.id);
      rows.set_i64(r, k::instances, instances);
      rows.set_i64(r, k::tasks, use.tasks);
      rows.set_i64(r, k::busy_ps, use.busy.count_ps());
      const double capacity =
          static_cast<double>(makespan.count_ps()) * static_cast<double>(instances);
      rows.set_f64(r, k::utilisation,
                   capacity > 0.0 ? static_cast<double>(use.busy.count_ps()) / capacity : kNaN);
      rows.set_f64(r, k::energy_pj, use.energy_pj);
      placement += (placement.empty() ? "" : " ") + unit.unit + "=" + std::to_string(use.tasks);
    }

    // The graph: static power over its makespan, as the report charges it (hw::static_energy_pj).
    double static_pj = 0.0;
    for (double e : hw::static_energy_pj(system, makespan)) static_pj += e;
    namespace k = graphs_col;
    Rows& rows = out.at(Table::graphs);
    const size_t r = rows.add();
    const bool decode =
        point.stage == Stage::decode || (point.stage == Stage::generate && step > 0);
    const int64_t context_length = point.stage == Stage::generate
                                       ? (step > 0 ? point.sequence_length + step - 1 : 0)
                                   : decode ? point.sequence_length
                                            : 0;
    rows.set_i64(r, k::graph_id, graph_id);
    rows.set_i64(r, k::point, static_cast<int64_t>(out.point));
    rows.set_text(r, k::point_id, point.id);
    rows.set_i32(r, k::step, step);
    rows.set_text(r, k::model, shown_path(point.model, context.scenario_dir));
    rows.set_text(r, k::family, labels.family);
    rows.set_text(r, k::split, labels.split);
    rows.set_text(r, k::stage, decode ? "decode" : "prefill");
    rows.set_i64(r, k::batch, 1);
    rows.set_i64(r, k::tokens, decode ? 1 : point.sequence_length);
    rows.set_i64(r, k::context_length, context_length);
    rows.set_i64(r, k::sequence_length, point.sequence_length);
    rows.set_i64(r, k::tensor_parallel, point.tensor_parallel);
    rows.set_i64(r, k::pipeline_parallel, point.pipeline_parallel);
    rows.set_text(r, k::system, descriptor.name);
    rows.set_text(r, k::system_file, descriptor.file);
    rows.set_text(r, k::hardware_ids, descriptor.ids);
    rows.set_text(r, k::objective, sum.objective);
    rows.set_text(r, k::profile, sum.profile);
    rows.set_text(r, k::scheduler, sum.scheduler);
    rows.set_text(r, k::fidelity, sum.fidelity);
    rows.set_i64(r, k::makespan_ps, makespan.count_ps());
    rows.set_f64(r, k::makespan_s, makespan.seconds());
    rows.set_f64(r, k::energy_pj, single ? sum.energy_pj : dynamic_pj + static_pj);
    rows.set_f64(r, k::dynamic_energy_pj, dynamic_pj);
    rows.set_f64(r, k::static_energy_pj, static_pj);
    rows.set_i64(r, k::tasks, static_cast<int64_t>(facts.end - facts.begin));
    rows.set_i64(r, k::nodes, nodes);
    rows.set_i64(r, k::macs, macs);
    rows.set_i64(r, k::flops, flops);
    rows.set_text(r, k::placement, placement);
    const bool bounded = single && searched;
    rows.set_f64(r, k::lower_bound, bounded ? sum.lower_bound : kNaN);
    rows.set_f64(r, k::gap, bounded ? sum.gap : kNaN);
    rows.set_f64(r, k::placement_evaluations,
                 bounded ? static_cast<double>(sum.placement_evaluations) : kNaN);
    rows.set_f64(r, k::photonic_selected,
                 single ? static_cast<double>(sum.photonic_selected) : kNaN);
    rows.set_f64(r, k::photonic_possible,
                 single ? static_cast<double>(sum.photonic_possible) : kNaN);
    if (g == 0) rows.set_text(r, k::split_product, sum.split);
    const size_t before = out.at(Table::alternatives).size();
    if (g == 0) add_alternatives(point, run, graph_id, out);
    rows.set_i64(r, k::alternatives,
                 static_cast<int64_t>(out.at(Table::alternatives).size() - before));
  }
}

}  // namespace lightcode::dataset::detail
