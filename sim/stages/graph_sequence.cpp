#include "sim/stages/graph_sequence.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/ordered_work.hpp"

namespace lightcode::sweep {
namespace {

constexpr std::string_view kSequenceTime = "the graphs' time";

// Steps planned and not yet taken, per planning thread: enough to keep the threads busy while
// the report takes one, few enough that memory does not grow with the tokens.
constexpr int64_t kPlannedAhead = 2;

// Appends a step's tasks and timeline to the kept ones (PointRun::tasks and schedule, as the
// rows): task ids (inputs) and fused kernel indices offset by those before, times by the
// step's start.
void append_step(PointRun& all, opt::TaskGraph&& step, const sched::Schedule& timeline,
                 Time start) {
  if (all.tasks.tasks.size() + step.tasks.size() >
      static_cast<size_t>(std::numeric_limits<opt::TaskId>::max())) {
    throw Error("the graphs' tasks together exceed " +
                std::to_string(std::numeric_limits<opt::TaskId>::max()) + " (task ids are int32)");
  }
  const auto first = static_cast<opt::TaskId>(all.tasks.tasks.size());
  const auto kernels = static_cast<int32_t>(all.tasks.kernels.size());
  for (opt::Task& t : step.tasks) {
    for (opt::TaskInput& in : t.inputs) in.producer += first;
    if (t.fused >= 0) t.fused += kernels;
    all.tasks.tasks.push_back(std::move(t));
  }
  for (ir::FusedKernel& k : step.kernels) all.tasks.kernels.push_back(std::move(k));
  all.tasks.subgraphs += step.subgraphs;
  for (sched::Slot s : timeline.slots) {
    s.start = start.plus(s.start, kSequenceTime);
    s.end = start.plus(s.end, kSequenceTime);
    all.schedule.slots.push_back(s);
  }
  all.schedule.makespan = start.plus(timeline.makespan, kSequenceTime);
}

// Adds what the engine measured in one step to the whole sequence's figures: link
// statistics and conversion time summed, transfers' task ids offset by `first`, memory samples
// and transfers at the step's start: every sample of a step whose rows are kept, else one
// holding the step's peak occupancy. Static energy is set once, over the whole run.
void append_measured(engine::EventResult& all, const engine::EventResult& step, opt::TaskId first,
                     Time start, bool every_sample) {
  if (all.conversion.empty()) {
    all.conversion.assign(step.conversion.size(), Time::zero());
    for (const engine::ChannelStats& c : step.links)
      all.links.push_back(engine::ChannelStats{c.name, {}, {}, 0, 0, 0.0});
  }
  for (size_t t = 0; t < step.conversion.size(); ++t) {
    all.conversion[t] =
        all.conversion[t].plus(step.conversion[t], "a unit's conversion-bound time");
  }
  for (size_t c = 0; c < step.links.size(); ++c) {
    engine::ChannelStats& sum = all.links[c];
    const engine::ChannelStats& s = step.links[c];
    sum.busy = sum.busy.plus(s.busy, "a link channel's busy time");
    sum.queue_delay = sum.queue_delay.plus(s.queue_delay, "a link channel's queueing time");
    sum.transfers += s.transfers;
    sum.bytes += s.bytes;
    sum.energy_pj += s.energy_pj;
  }
  if (every_sample) {
    for (const engine::MemorySample& m : step.memory) {
      all.memory.push_back(
          engine::MemorySample{start.plus(m.time, kSequenceTime), m.sram_bytes, m.hbm_bytes});
    }
  } else if (!step.memory.empty()) {
    engine::MemorySample peak{start, 0, 0};
    for (const engine::MemorySample& m : step.memory) {
      peak.sram_bytes = std::max(peak.sram_bytes, m.sram_bytes);
      peak.hbm_bytes = std::max(peak.hbm_bytes, m.hbm_bytes);
    }
    all.memory.push_back(peak);
  }
  for (engine::TransferRecord r : step.transfers) {
    r.producer += first;
    r.consumer += first;
    r.start = start.plus(r.start, kSequenceTime);
    r.end = start.plus(r.end, kSequenceTime);
    all.transfers.push_back(std::move(r));
  }
  all.sram_spills += step.sram_spills;
  all.sram_peak_bytes = std::max(all.sram_peak_bytes, step.sram_peak_bytes);
  all.hbm_peak_bytes = std::max(all.hbm_peak_bytes, step.hbm_peak_bytes);
}

// The figures of a later graph's plan that the sequence's summary sums (see the header).
void add_step_counts(results::PointSummary& sum, const results::PointSummary& step) {
  sum.photonic_selected += step.photonic_selected;
  sum.photonic_possible += step.photonic_possible;
  sum.photonic_refused_precision += step.photonic_refused_precision;
  sum.reduced_precision_products += step.reduced_precision_products;
  if (sum.reduced_precision.empty()) sum.reduced_precision = step.reduced_precision;
  sum.subgraphs += step.subgraphs;
  sum.subgraphs_solved += step.subgraphs_solved;
  sum.subgraphs_reused += step.subgraphs_reused;
  sum.placement_evaluations += step.placement_evaluations;
  sum.lower_bound += step.lower_bound;
  sum.gap = std::max(sum.gap, step.gap);
}

}  // namespace

GraphSequence run_graph_sequence(const PointSpec& point, const PointOptions& options, int64_t graphs,
                                 const std::function<PointSpec(int64_t)>& spec_of,
                                 const std::function<void(int64_t, Time)>& on_makespan,
                                 joint::PlacementReuse* reuse) {
  GraphSequence out;
  out.event = point.fidelity == Fidelity::event;
  const bool every_task = options.every_task || !options.trace_path.empty();
  PointRun& run = out.run;
  run.tasks.subgraphs = 0;
  results::PointSummary sum;
  std::shared_ptr<const hw::System> system;  // graph 0's, which every graph runs on
  std::optional<ReportBuilder> report;
  const sched::SchedulingPolicy* policy = nullptr;
  std::unique_ptr<engine::Session> session;
  Time end;
  int64_t first = 0;  // the graph's first task id over the whole sequence
  std::optional<OrderedWork<PlannedPoint>> ahead;
  for (int64_t t = 0; t < graphs; ++t) {
    PlannedPoint step = t == 0 ? plan_point(spec_of(0), reuse) : ahead->next();
    if (t == 0) {
      ahead.emplace(graphs - 1, options.threads, kPlannedAhead * options.threads,
                    [&spec_of, reuse, shared = step.system](int64_t i) {
                      return plan_point(spec_of(i + 1), reuse, shared);
                    });
      sum = step.run.result.summary;
      system = step.system;
      report.emplace(*system);
      policy = step.policy;
      run.result.pareto = std::move(step.run.result.pareto);
    } else {
      add_step_counts(sum, step.run.result.summary);
    }
    out.analytical = out.analytical.plus(step.run.schedule.makespan, kSequenceTime);
    const Time start = end;
    const bool keep = every_task || t < kKeptSteps;
    sched::Schedule timeline = std::move(step.run.schedule);
    if (out.event) {
      if (!session)
        session = std::make_unique<engine::Session>(*system, event_options(options), *policy);
      engine::EventResult r = session->run(step.run.tasks);
      append_measured(out.measured, r, static_cast<opt::TaskId>(first), start, keep);
      timeline = std::move(r.schedule);
    }
    on_makespan(t, timeline.makespan);
    end = start.plus(timeline.makespan, kSequenceTime);
    report->add(step.run.tasks, timeline, start, keep, static_cast<int32_t>(t));
    first += static_cast<int64_t>(step.run.tasks.tasks.size());
    if (keep) append_step(run, std::move(step.run.tasks), timeline, start);
  }
  if (session) session->close();
  out.measured.static_energy_pj = hw::static_energy_pj(*system, end);
  run.result.summary = std::move(sum);
  report->finish(end, run.result, out.event ? &out.measured : nullptr);
  return out;
}

}  // namespace lightcode::sweep
