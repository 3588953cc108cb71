#include "sim/stages/generate/generate_stage.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "frontend/load_model.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/results/trace.hpp"
#include "sim/stages/graph/graph_stage.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {
namespace {

constexpr std::string_view kGenerationTime = "the generation's time";

// The rows a generation keeps unless every task is asked for: the prefill's and the first decode
// step's (a Gantt chart of one of each; the memory profile's samples likewise).
constexpr int64_t kKeptSteps = 2;

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
    throw Error("stage generate: the steps' tasks together exceed " +
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
    s.start = start.plus(s.start, kGenerationTime);
    s.end = start.plus(s.end, kGenerationTime);
    all.schedule.slots.push_back(s);
  }
  all.schedule.makespan = start.plus(timeline.makespan, kGenerationTime);
}

// Adds what the engine measured in one step to the whole generation's figures: link
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
          engine::MemorySample{start.plus(m.time, kGenerationTime), m.sram_bytes, m.hbm_bytes});
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
    r.start = start.plus(r.start, kGenerationTime);
    r.end = start.plus(r.end, kGenerationTime);
    all.transfers.push_back(std::move(r));
  }
  all.sram_spills += step.sram_spills;
  all.sram_peak_bytes = std::max(all.sram_peak_bytes, step.sram_peak_bytes);
  all.hbm_peak_bytes = std::max(all.hbm_peak_bytes, step.hbm_peak_bytes);
}

// The figures of a later step's plan that the generation's summary sums (see the header).
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

PointSpec generation_step(const PointSpec& point, int64_t step) {
  PointSpec s = point;
  if (step == 0) {
    s.stage = Stage::prefill;
    return s;
  }
  s.stage = Stage::decode;
  // The cache holds the prompt and the tokens fed by the steps before: token t is fed at step t.
  s.sequence_length = point.sequence_length + step - 1;
  return s;
}

PointRun run_generation(const PointSpec& point, const PointOptions& options) {
  if (frontend::is_graph_file(point.model)) {
    throw Error("stage generate needs a built-in model (a TVM graph file is one traced stage): '" +
                point.model + "'");
  }
  if (point.new_tokens < 1) throw Error("stage generate needs `new_tokens` of at least 1");
  const bool event = point.fidelity == Fidelity::event;
  const bool every_task = options.every_task || !options.trace_path.empty();
  PointRun run;
  run.tasks.subgraphs = 0;
  results::PointSummary sum;
  std::shared_ptr<const hw::System> system;  // the prefill's, which every step runs on
  std::optional<ReportBuilder> report;
  const sched::SchedulingPolicy* policy = nullptr;
  std::unique_ptr<engine::Session> session;
  engine::EventResult measured;
  Time analytical, ttft, decode, end;
  int64_t first = 0;  // the step's first task id over the whole generation
  joint::PlacementReuse reuse;  // placement_reuse: by_class
  joint::PlacementReuse* reusing = point.placement_reuse == serve::PlacementReuseMode::by_class ? &reuse : nullptr;
  // The prefill first (its system serves every step), then the decode steps planned ahead
  // on options.threads threads: each step's plan depends on its own graph only (and, reused,
  // on its class's representative), so the figures do not depend on the thread count.
  std::optional<OrderedWork<PlannedPoint>> ahead;
  for (int64_t t = 0; t < point.new_tokens; ++t) {
    PlannedPoint step = t == 0 ? plan_point(generation_step(point, 0), reusing) : ahead->next();
    if (t == 0) {
      ahead.emplace(point.new_tokens - 1, options.threads, kPlannedAhead * options.threads,
                    [&point, reusing, shared = step.system](int64_t i) {
                      return plan_point(generation_step(point, i + 1), reusing, shared);
                    });
      sum = step.run.result.summary;
      system = step.system;
      report.emplace(*system);
      policy = step.policy;
      run.result.pareto = std::move(step.run.result.pareto);
    } else {
      add_step_counts(sum, step.run.result.summary);
    }
    analytical = analytical.plus(step.run.schedule.makespan, kGenerationTime);
    const Time start = end;
    const bool keep = every_task || t < kKeptSteps;
    sched::Schedule timeline = std::move(step.run.schedule);
    if (event) {
      if (!session)
        session = std::make_unique<engine::Session>(*system, event_options(options), *policy);
      engine::EventResult r = session->run(step.run.tasks);
      append_measured(measured, r, static_cast<opt::TaskId>(first), start, keep);
      timeline = std::move(r.schedule);
    }
    if (t == 0) {
      ttft = timeline.makespan;
    } else {
      decode = decode.plus(timeline.makespan, "the generation's decode time");
    }
    end = start.plus(timeline.makespan, kGenerationTime);
    report->add(step.run.tasks, timeline, start, keep, static_cast<int32_t>(t));
    first += static_cast<int64_t>(step.run.tasks.tasks.size());
    if (keep) append_step(run, std::move(step.run.tasks), timeline, start);
  }
  if (session) session->close();
  measured.static_energy_pj = hw::static_energy_pj(*system, end);
  run.result.summary = std::move(sum);
  report->finish(end, run.result, event ? &measured : nullptr);
  results::PointSummary& out = run.result.summary;
  out.stage = "generate";
  out.parts = generate_stage().summary_parts;
  out.fidelity = event ? "event" : "analytical";
  out.analytical_makespan = analytical;
  out.new_tokens = point.new_tokens;
  out.ttft_s = ttft.seconds();
  out.tpot_s =
      point.new_tokens > 1 ? decode.seconds() / static_cast<double>(point.new_tokens - 1) : 0.0;
  out.energy_per_token_pj = out.energy_pj / static_cast<double>(point.new_tokens);
  if (!options.trace_path.empty()) {
    results::write_trace(options.trace_path, run.result,
                         event ? trace_transfers(measured) : std::vector<results::TraceTransfer>{});
  }
  return run;
}

namespace {

const ParamTable& generate_table() {
  static const ParamTable table{
      "stage.generate",
      "Stage generate: a prompt's prefill, then one decode step per further token.",
      {rows::logits(), rows::precision(), rows::dtype_precision(), rows::sequence_length(), rows::new_tokens(), rows::system(),
       rows::fidelity(), rows::pareto(), rows::placement_evaluations(), rows::placement_reuse()}};
  return table;
}

void read_generate(const Params& p, PointSpec& s) {
  if (frontend::is_graph_file(s.model)) {
    p.at("model").fail("stage generate needs a built-in model (a TVM graph file is one traced stage)");
  }
  read_graph_keys(p, s);
  if (hw::profile_named(s.profile).places_with_schedule()) {
    s.placement_reuse = serve::parse_placement_reuse(p.choice("placement_reuse"));
  }
  s.new_tokens = p.count("new_tokens");
  if (s.sequence_length + s.new_tokens > limits::kSequenceLength.value) {
    p.at("new_tokens").fail("sequence_length + new_tokens = " + std::to_string(s.sequence_length + s.new_tokens) +
                            " is above the limit of " + std::to_string(limits::kSequenceLength.value) + " (" +
                            std::string(limits::kSequenceLength.name) + ")");
  }
}

}  // namespace

StageInfo generate_stage() {
  return StageInfo{Stage::generate,
                   "generate",
                   "a prompt's prefill, then new_tokens - 1 decode steps (TTFT, TPOT, energy per token)",
                   &generate_table(),
                   results::kGraphFigures | results::kGenerationFigures | results::kPerTokenEnergy,
                   read_generate,
                   check_graph_inputs,
                   run_generation};
}

}  // namespace lightcode::sweep
