#include "sim/point/pipeline.hpp"

#include <map>

#include "frontend/load_model.hpp"
#include "hw_models/resident_inputs.hpp"
#include "hw_models/system.hpp"
#include "sim/core/quantity.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/precision.hpp"
#include "sim/joint/split_search.hpp"
#include "sim/results/trace.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/reported_cost.hpp"

namespace lightcode::sweep {
namespace {

std::string shapes_text(const std::vector<ir::TensorType>& ts) {
  std::string s;
  for (const auto& t : ts) s += (s.empty() ? "" : " ") + t.shape.str();
  return s;
}

// Busy time over makespan; 0 for an empty schedule.
double utilisation(Time busy, Time makespan) {
  return makespan > Time::zero() ? static_cast<double>(busy.count_ps()) / static_cast<double>(makespan.count_ps())
                                 : 0.0;
}

results::UnitRecord link_record(const engine::ChannelStats& c, Time makespan) {
  results::UnitRecord r;
  r.name = c.name;
  r.kind = "link";
  r.busy = c.busy;
  r.utilisation = utilisation(r.busy, makespan);
  r.energy_pj = c.energy_pj;
  r.tasks = c.transfers;
  r.bytes = c.bytes;
  r.queue_delay = c.queue_delay;
  return r;
}

}  // namespace

std::vector<results::TraceTransfer> trace_transfers(const engine::EventResult& event) {
  std::vector<results::TraceTransfer> out;
  out.reserve(event.transfers.size());
  for (const engine::TransferRecord& t : event.transfers) {
    out.push_back(results::TraceTransfer{t.channel, std::to_string(t.producer) + "->" + std::to_string(t.consumer),
                                         event.start + t.start, event.start + t.end, t.bytes});
  }
  return out;
}

engine::EngineOptions event_options(const PointOptions& options) {
  engine::EngineOptions engine_options = options.engine;
  engine_options.record_transfers = engine_options.record_transfers || !options.trace_path.empty();
  return engine_options;
}

void fill_report(const opt::TaskGraph& graph, const sched::Schedule& schedule,
                 const hw::System& system, results::PointResult& out, const engine::EventResult* event) {
  ReportBuilder report(system);
  report.add(graph, schedule, Time::zero(), true);
  report.finish(schedule.makespan, out, event);
}

void ReportBuilder::add(const opt::TaskGraph& graph, const sched::Schedule& schedule, Time start, bool keep_rows,
                        int32_t step) {
  const hw::System& system = *system_;
  const auto& tasks = graph.tasks;
  // Energy: each task's own, and each input transfer's, by unit type and category: compute or
  // memory (less conversion) and conversion, or the unit's own parts (hw::EnergyParts).
  for (size_t i = 0; i < tasks.size(); ++i) {
    const opt::Task& t = tasks[i];
    const hw::UnitInfo& u = system.unit(t.unit);
    if (t.kind != ir::OpKind::start && !t.repeat) ++nodes_;
    const double e = t.cost.energy.picojoules();
    const double conversion = t.cost.conversion_energy.picojoules();
    const bool memory = system.model(t.unit).capabilities().category == hw::EnergyCategory::memory;
    if (!t.cost.parts.empty()) {
      // A unit that splits its energy (a device-built PHU) shows its categories instead.
      for (size_t k = 0; k < hw::kEnergyParts; ++k) {
        const auto part = static_cast<hw::EnergyPart>(k);
        const double pe = t.cost.parts[part].picojoules();
        if (pe != 0.0) rows_[{u.name, std::string(hw::energy_part_name(part))}] += pe;
      }
    } else if (e != 0.0) {  // a free task (a view, a read the memory does not charge) adds no row
      rows_[{u.name, memory ? "memory" : "compute"}] += e - conversion;
      if (conversion > 0.0) rows_[{u.name, "conversion"}] += conversion;
    }
    // The dynamic total as sched::reported_cost sums it: the task, then its input transfers.
    dynamic_pj_ += e;
    for (const opt::TaskInput& in : t.inputs) {
      const double te = in.transfer.energy.picojoules();
      dynamic_pj_ += te;
      if (te == 0.0) continue;
      rows_[{system.unit(tasks[static_cast<size_t>(in.producer)].unit).name + "->" + u.name, "data_movement"}] += te;
    }
    const sched::Slot& slot = schedule.slots[i];
    if (ir::is_collective(t.kind)) communication_ = communication_.plus(slot.end - slot.start, "the collectives' time");
    results::UnitRecord& rec = units_[{t.unit, slot.instance}];
    rec.name = u.name;
    rec.index = slot.instance;
    rec.busy = rec.busy.plus(slot.end - slot.start, "a unit's busy time");
    rec.energy_pj += e;
    ++rec.tasks;
    if (!keep_rows) continue;

    results::TaskRecord r;
    r.id = tasks_ + static_cast<int64_t>(i);
    r.name = t.name;
    r.op = t.kind_name;
    r.hardware = u.name;
    r.unit = slot.instance;
    r.node = t.node;
    r.subgraph = t.subgraph;
    r.start = start.plus(slot.start, "the report's time");
    r.end = start.plus(slot.end, "the report's time");
    r.energy_pj = e;
    for (const opt::TaskInput& in : t.inputs)
      r.inputs += (r.inputs.empty() ? "" : ",") + std::to_string(tasks_ + in.producer);
    r.outputs = shapes_text(t.outputs);
    for (ir::NodeId n : t.covers) r.covers += (r.covers.empty() ? "" : ",") + std::to_string(n);
    r.step = step;
    kept_.push_back(std::move(r));
  }
  tasks_ += static_cast<int64_t>(tasks.size());
  // A system without units one per device has no share to count (devices() is 1).
  if (system.devices() > 1) device_dynamic_pj_ += sched::device_dynamic_pj(graph, system);
}

void ReportBuilder::finish(Time makespan, results::PointResult& out, const engine::EventResult* event) {
  const hw::System& system = *system_;
  results::PointSummary& sum = out.summary;
  sum.makespan = makespan;
  sum.makespan_s = makespan.seconds();
  sum.nodes = nodes_;
  for (results::TaskRecord& r : kept_) out.tasks.push_back(std::move(r));
  kept_.clear();
  // Static power is charged at every fidelity: the engine's figure, or the same formula on the
  // analytical makespan.
  const std::vector<double> static_pj = event ? event->static_energy_pj : hw::static_energy_pj(system, makespan);
  for (auto& [key, rec] : units_) {
    rec.utilisation = utilisation(rec.busy, makespan);
    const auto type = static_cast<size_t>(key.first);
    rec.static_energy_pj = static_pj[type] / system.model(key.first).unit_count();
    if (event) rec.conversion = key.second == 0 ? event->conversion[type] : Time::zero();
    out.units.push_back(rec);
  }
  for (size_t t = 0; t < static_pj.size(); ++t) {
    if (static_pj[t] == 0.0) continue;
    rows_[{system.unit(static_cast<hw::UnitType>(t)).name, "static"}] += static_pj[t];
  }
  // The total the objectives minimise (sim/sched/reported_cost.hpp), in the same order.
  double total = dynamic_pj_;
  for (double s : static_pj) total += s;
  sum.energy_pj = check_energy(total, "the point's total");
  if (event) {
    for (const engine::ChannelStats& link : event->links) out.units.push_back(link_record(link, makespan));
    for (const engine::MemorySample& m : event->memory) {
      out.memory_profile.push_back(results::MemorySample{m.time, m.sram_bytes, m.hbm_bytes});
    }
  }
  for (const auto& [key, e] : rows_) {
    check_energy(e, [&key = key] { return key.first + " " + key.second; });
    out.energy.push_back(results::EnergyRow{key.first, key.second, e});
  }
  sum.communication_s = communication_.seconds();
  // Every other device of the group spends the simulated device's share (sched::device_*):
  // each other rank of its stage its dynamic energy, every other device its static power.
  const int64_t tp = sum.tensor_parallel, devices = tp * sum.pipeline_parallel;
  sum.group_energy_pj = sum.energy_pj;
  if (devices > 1) {
    sum.group_energy_pj = check_energy(
        sum.energy_pj + static_cast<double>(tp - 1) * device_dynamic_pj_ +
            static_cast<double>(devices - 1) * sched::device_static_watts(system) * makespan.seconds() *
                kPicojoulesPerJoule,
        "the devices' energy");
  }
}

ir::Graph point_graph(const PointSpec& point) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  frontend::ModelRequest req;
  req.model = point.model;
  req.stage = point.stage == Stage::decode ? frontend::Stage::decode : frontend::Stage::prefill;
  req.length = point.sequence_length;
  req.traced_length = point.traced_length;
  req.logits = frontend::logits_for(point.logits, profile.logits_for_every_token());
  req.input_rule = profile.input_rule();
  req.precision_bits = static_cast<int>(point.precision);
  req.dtype_precision = point.dtype_precision;
  req.parallel = frontend::Parallelism{point.tensor_parallel, 0, point.pipeline_parallel, point.pipeline_stage};
  return frontend::load_model(req);
}

hw::System point_system(const PointSpec& point) {
  return hw::System::from_config(system_config(point), hw::profile_named(point.profile));
}

PointInputs point_inputs(const PointSpec& point) {
  ir::Graph graph = point_graph(point);
  return PointInputs{std::move(graph), point_system(point)};
}

namespace {

// Whether a photonic unit of the system refuses `op` for requiring more bits than it computes at.
bool refused_for_precision(const ir::Node& op, const hw::System& system) {
  const std::optional<int> bits = ir::required_bits(op);
  if (!bits) return false;
  for (size_t u = 0; u < system.unit_count(); ++u) {
    const hw::HardwareModel& m = system.model(static_cast<hw::UnitType>(u));
    const std::optional<int> most = m.max_product_bits();
    if (m.capabilities().photonic && most && *bits > *most) return true;
  }
  return false;
}

// The bits a photonic `unit` runs the product `op` at when they are fewer than its dtype holds
// (ir::held_bits: a bfloat16 product on a 4-bit core, 4), else none.
std::optional<int> reduced_bits(const ir::Node& op, const hw::HardwareModel& unit) {
  const std::optional<int> most = unit.max_product_bits();
  if (!most || op.input_types.empty()) return std::nullopt;
  const int bits = ir::required_bits(op).value_or(*most);
  return bits < ir::held_bits(op.input_type(0).dtype) ? std::optional<int>(bits) : std::nullopt;
}
}  // namespace

PlannedPoint plan_point(const PointSpec& point, joint::PlacementReuse* reuse,
                        std::shared_ptr<const hw::System> shared_system) {
  const hw::Profile& profile = hw::profile_named(point.profile);
  const opt::Objective objective = opt::objective_named(point.objective).id;
  ir::Graph point_model = point_graph(point);
  if (!shared_system) {
    shared_system = std::make_shared<const hw::System>(point_system(point));
  }
  const int64_t devices = point.tensor_parallel * point.pipeline_parallel;
  shared_system->require_devices(devices, "tensor_parallel " + std::to_string(point.tensor_parallel) +
                                              " x pipeline_parallel " + std::to_string(point.pipeline_parallel) +
                                              " needs " + std::to_string(devices) + " devices");
  hw::check_resident_inputs(point_model, *shared_system, point.model);
  const sched::SchedulingPolicy& policy =
      sched::default_policies().at(point.scheduler.empty() ? profile.default_scheduler() : point.scheduler);
  PlannedPoint planned{{}, std::move(shared_system), &policy};
  const hw::System& system = *planned.system;
  PointRun& run = planned.run;
  results::PointSummary& sum = run.result.summary;
  // The graph placed (a split copy when the joint search splits a product), its stacks and
  // partition.
  joint::Answer answer;
  answer.graph = std::make_unique<const ir::Graph>(std::move(point_model));
  opt::Placement placement;
  if (profile.places_with_schedule()) {
    joint::JointOptions search;
    search.evaluations = static_cast<int>(point.placement_evaluations);
    search.energy_seeds_for_time = devices > 1;  // JointOptions says why
    if (reuse != nullptr) {
      PointSpec rep = point;
      rep.sequence_length = serve::representative_length(point.sequence_length);
      answer = reuse->place(
          std::move(answer.graph), {static_cast<int64_t>(point.stage), rep.sequence_length},
          [&rep] { return std::make_unique<const ir::Graph>(point_graph(rep)); }, system, objective, policy,
          search);
    } else {
      answer = joint::place_with_splits(std::move(answer.graph), system, objective, policy, search);
    }
    joint::JointResult& j = answer.result;
    placement = std::move(j.placement);
    run.tasks = std::move(j.tasks);
    run.schedule = std::move(j.schedule);
    const opt::ObjectiveInfo& info = opt::objective_info(objective);
    sum.lower_bound = info.reported(j.lower_bound);
    sum.gap = j.gap;
    sum.placement_evaluations = j.evaluations;
    if (point.pareto) {
      for (const joint::ParetoPoint& f : j.front) run.result.pareto.push_back({f.makespan, f.energy_pj, f.origin});
    }
    if (answer.split) {
      const opt::SplitPlan& plan = answer.split->plan;
      sum.split = answer.split->product + ": rows 0.." + std::to_string(plan.rows_a - 1) + " on " +
                  system.unit(plan.unit_a).name + ", " + std::to_string(plan.rows_a) + ".." +
                  std::to_string(plan.rows - 1) + " on " + system.unit(plan.unit_b).name;
    }
  } else {
    answer.stacks = std::make_unique<const opt::StackedGraph>(*answer.graph, system);
    answer.part = opt::partition_for(*answer.stacks);
    placement = opt::place(*answer.stacks, answer.part, objective);
    run.tasks = opt::expand(*answer.stacks, answer.part, placement);
    run.schedule = sched::schedule(run.tasks, sched::unit_instances(system), policy);
  }
  const ir::Graph& graph = *answer.graph;
  const opt::StackedGraph& stacks = *answer.stacks;
  const opt::Partition& part = answer.part;

  sum.id = point.id;
  sum.parameters = point.parameters;
  sum.model = point.model;
  sum.stage = std::string(stage_name(point.stage));
  sum.sequence_length = point.sequence_length;
  sum.system = system.name();
  sum.objective = point.objective;
  sum.profile = std::string(profile.name());
  sum.fidelity = "analytical";
  sum.subgraphs = part.count;
  sum.subgraphs_solved = placement.solved;
  sum.subgraphs_reused = placement.reused;
  sum.analytical_makespan = run.schedule.makespan;
  sum.scheduler = std::string(policy.name());
  sum.precision_bits = system.models_precision() ? point.precision : 0;  // else it changed nothing
  sum.tensor_parallel = point.tensor_parallel;
  sum.pipeline_parallel = point.pipeline_parallel;
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    if (!stacks.photonic_possible(id)) {
      if (refused_for_precision(graph.node(id), system)) ++sum.photonic_refused_precision;
      continue;
    }
    ++sum.photonic_possible;
    const opt::Candidate& c = stacks.candidate(id, placement.choice[i]);
    if (!system.model(c.unit).capabilities().photonic) continue;
    ++sum.photonic_selected;
    if (const std::optional<int> bits = reduced_bits(graph.node(id), system.model(c.unit))) {
      if (sum.reduced_precision_products++ == 0) {
        sum.reduced_precision = std::string(ir::dtype_name(graph.node(id).input_type(0).dtype)) + " at " +
                                std::to_string(*bits) + " bits on " + system.unit(c.unit).name;
      }
    }
  }
  return planned;
}

ConfigNode system_config(const std::string& file, const std::vector<std::pair<std::string, std::string>>& overrides) {
  ConfigNode c = ConfigNode::load_file(file, "system file");
  for (const auto& [path, value] : overrides) c = c.with_value(path, value, "sweep axis " + path);
  return c;
}

ConfigNode system_config(const PointSpec& point) { return system_config(point.system, point.overrides); }

}  // namespace lightcode::sweep
