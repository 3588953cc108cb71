#pragma once
// The point pipeline every stage runs on (sim/stages): a graph point's model and system loaded
// (point_inputs), placed, expanded and scheduled analytically (plan_point), and its report
// filled from a timeline (fill_report), with what only the event engine knows when it ran.
// A stage's runner (prefill, decode, generate, serve) composes these.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/core/config.hpp"
#include "sim/engine/engine.hpp"
#include "sim/opt/expand.hpp"
#include "sim/point/point_spec.hpp"
#include "sim/results/report.hpp"
#include "sim/results/trace.hpp"
#include "sim/sched/schedule.hpp"
#include "sim/serve/simulator.hpp"

namespace lightcode::sweep {

struct PointRun {
  results::PointResult result;
  opt::TaskGraph tasks;      // kept for listings, traces and the event engine
  sched::Schedule schedule;  // analytical timeline
  // Stage serve with PointOptions::keep_iterations: every iteration as run, in start order
  // (the runtime dataset's records, sim/dataset); else empty.
  std::vector<serve::IterationRecord> iterations;
};

struct PointOptions {
  engine::EngineOptions engine;  // event fidelity only
  std::string trace_path;        // "" = none; Perfetto / Chrome JSON of the timeline
  // Stage generate: keep every step's task rows (a listing asks for them; a trace keeps them
  // anyway). Otherwise its tasks table holds the first steps' rows only and every other figure
  // sums all steps (sim/stages/generate/generate_stage.hpp), so memory does not grow with tokens.
  bool every_task = false;
  // Threads a point may use, the figures the same for any count: stage generate plans decode
  // steps ahead of the one being reported (sim/core/ordered_work.hpp); stage serve prices an
  // iteration's one- and two-layer graphs at once (serve::PipelineCostOptions). 1: none.
  int threads = 1;
  // Stage serve: keep every iteration in PointRun::iterations (sim/dataset records them). Off
  // by default: a long run's iterations take memory that its report does not need.
  bool keep_iterations = false;
};

// The analytical part of a prefill or decode point: its graph placed, expanded and scheduled
// analytically, and the summary's fields that follow from that (parameters, system, counts,
// placement search, analytical makespan; fidelity "analytical"), with no report rows yet and
// nothing timed on the engine. run_point() reports it or times it on the engine; generation
// plans one per step. `policy` points into the registry.
struct PlannedPoint {
  PointRun run;
  std::shared_ptr<const hw::System> system;
  const sched::SchedulingPolicy* policy = nullptr;
};
// With `reuse`, a profile that places with the schedule takes the placement of the point's
// representative (its sequence length rounded down to a power of two: serve::representative_length)
// from `reuse` (joint::PlacementReuse: generation's steps under `placement_reuse: by_class`).
// With `system`, the point runs on it instead of one built from its system file and
// overrides: the caller's promise that it is that system (generation's steps share the
// prefill's, so the file is read and the units built once).
PlannedPoint plan_point(const PointSpec& point, joint::PlacementReuse* reuse = nullptr,
                        std::shared_ptr<const hw::System> system = nullptr);

// The engine options a point's event run uses: options.engine, recording every transfer when
// a trace is asked for.
engine::EngineOptions event_options(const PointOptions& options);
// The transfers the engine recorded, as trace rows at absolute times (event.start added).
std::vector<results::TraceTransfer> trace_transfers(const engine::EventResult& event);

// The graph and the system a prefill or decode point runs: its model request (stage, length,
// logits, precision) and its system with the sweep's overrides, under its profile.
struct PointInputs {
  ir::Graph graph;
  hw::System system;
};
PointInputs point_inputs(const PointSpec& point);
// Each alone: the graph (no system built), the system (no graph built).
ir::Graph point_graph(const PointSpec& point);
hw::System point_system(const PointSpec& point);

// Energy and unit statistics of a timeline over a task graph; `event` adds what only the
// engine knows (links, memory profile, static power, conversion energy).
void fill_report(const opt::TaskGraph& tasks, const sched::Schedule& schedule,
                 const hw::System& system, results::PointResult& out,
                 const engine::EventResult* event = nullptr);

// fill_report in parts: task graphs timed one after another (generation's steps) added in
// turn, each at its start, its task rows kept or not, then the report finished over the whole
// makespan. Every sum is taken in the order fill_report takes it over the graphs' tasks laid
// end to end (ids offset by the tasks before), so the figures are the same to the bit; only
// the rows not kept are missing. `system` must outlive the builder.
class ReportBuilder {
 public:
  explicit ReportBuilder(const hw::System& system) : system_(&system) {}
  // `schedule` is `graph`'s own timeline; `step` goes to the rows (TaskRecord::step).
  void add(const opt::TaskGraph& graph, const sched::Schedule& schedule, Time start, bool keep_rows,
           int32_t step = 0);
  void finish(Time makespan, results::PointResult& out, const engine::EventResult* event = nullptr);

 private:
  const hw::System* system_;
  int64_t tasks_ = 0;  // added so far: the next graph's id offset
  int64_t nodes_ = 0;
  double dynamic_pj_ = 0.0;  // tasks' and input transfers' energy, in task order
  Time communication_;       // the collectives' time
  double device_dynamic_pj_ = 0.0;  // of the above, what every other rank spends too
  std::map<std::pair<std::string, std::string>, double> rows_;  // energy by (hardware, category)
  std::map<std::pair<hw::UnitType, int32_t>, results::UnitRecord> units_;
  std::vector<results::TaskRecord> kept_;
};

// The point's system config (its file) with its overrides applied.
ConfigNode system_config(const std::string& file, const std::vector<std::pair<std::string, std::string>>& overrides);
ConfigNode system_config(const PointSpec& point);

}  // namespace lightcode::sweep
