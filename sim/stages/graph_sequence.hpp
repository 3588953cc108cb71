#pragma once
// Graphs run one after another on one system, reported as one point: the steps of a generation
// (prefill, then one decode step per token: generate_stage.hpp) and the stages of a pipeline
// (graph_stage.hpp). Graph i is the point `spec_of(i)`, planned as a point of its own
// (plan_point: placement, expansion, analytical schedule) on graph 0's system; later graphs are
// planned ahead on options.threads threads (each plan depends on its own graph only, so the
// figures do not depend on the thread count). At event fidelity every graph's tasks run in
// order on one SystemC session (engine::Session, in this process), each starting when the
// previous one has finished; at analytical fidelity the analytical timelines are laid end to
// end. Graph i starts at the sum of the makespans before it.
// The report covers every graph, alike at both fidelities: units, links and the energy
// breakdown summed (task by task in graph order: the figures one report over every graph's
// tasks would give, to the bit); static power over the whole run. Task rows at absolute times,
// ids offset so that `inputs` name rows of the same table, `step` = the graph's index: every
// graph's when a listing or trace asks (PointOptions::every_task, trace_path), else the first
// kKeptSteps graphs' only, so that memory does not grow with the graphs (the memory profile
// likewise: every sample of the kept graphs, one per later graph at its start holding its peak).
// Summary: graph 0's, with nodes, photonic counts, subgraphs and placements evaluated summed
// over the graphs, lower_bound the bounds summed (a bound on the sum), gap the largest; split
// and pareto graph 0's; makespan the whole run's. The caller sets its stage's own figures.
#include <cstdint>
#include <functional>

#include "sim/engine/event_result.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/point/pipeline.hpp"

namespace lightcode::sweep {

// The graphs whose rows a sequence keeps unless every task is asked for: a generation's
// prefill and first decode step (a Gantt chart of one of each).
inline constexpr int64_t kKeptSteps = 2;

struct GraphSequence {
  PointRun run;                   // the report over every graph (see above)
  Time analytical;                // the graphs' analytical makespans summed
  engine::EventResult measured;   // event fidelity: what the engine measured, for a trace
  bool event = false;
};

// `graphs` >= 1; `on_makespan(i, makespan)` is told each graph's makespan on the timeline it
// ran on, in order. `reuse` as plan_point's.
GraphSequence run_graph_sequence(const PointSpec& point, const PointOptions& options, int64_t graphs,
                                 const std::function<PointSpec(int64_t)>& spec_of,
                                 const std::function<void(int64_t, Time)>& on_makespan,
                                 joint::PlacementReuse* reuse = nullptr);

}  // namespace lightcode::sweep
