#pragma once
// Stage generate: the prefill of the P-token prompt gives the first token; decode step t
// (t = 1 .. T-1, T = new_tokens) gives token t + 1, feeding one token against a KV cache of the
// P + t - 1 tokens before it. Each step is a graph of its own, planned as a point of its own
// (placement, expansion, analytical schedule: plan_point). At event fidelity every step's tasks
// run in order on one SystemC session (engine::Session, in this process), each step starting
// when the previous one has finished; at analytical fidelity the steps' analytical timelines
// are laid end to end. A step starts at the sum of the previous steps' makespans.
//
// The point's report covers every step, alike at both fidelities: units, links and the energy
// breakdown summed over the steps (sums taken task by task in step order: the figures one
// report over every step's tasks would give, to the bit); static power over the whole
// generation. Task rows at absolute times, ids offset so that `inputs` name rows of the same
// table, `step` 0 for the prefill and t for decode step t: every step's when a listing or a
// trace asks for them (PointOptions::every_task, trace_path), else the prefill's and the first
// decode step's only, so that a long generation's memory does not grow with its tokens (a
// Llama-2-7B decode step has about a thousand tasks). The memory profile (event fidelity)
// likewise: every sample of the steps whose rows are kept, one per later step at its start
// holding that step's peak occupancy. Summary: makespan = the whole generation, ttft_s = the prefill's makespan,
// tpot_s = the mean decode step's, energy_per_token_pj = energy / T; nodes, photonic counts,
// subgraphs and placements evaluated summed over the steps; lower_bound the steps' bounds
// summed (a bound on the sum), gap the largest step's; split and pareto the prefill's.
// A TVM graph model is an error (a traced graph is one stage). Keys: those of one graph per
// step (graph_stage.hpp read_graph_keys) and new_tokens (required); sequence_length +
// new_tokens within limits::kSequenceLength.
#include <cstdint>

#include "sim/stages/stage.hpp"

namespace lightcode::sweep {

StageInfo generate_stage();

PointRun run_generation(const PointSpec& point, const PointOptions& options = {});

// The prefill (`step` 0) or decode (`step` t >= 1) point of a generate point's step t.
PointSpec generation_step(const PointSpec& point, int64_t step);

}  // namespace lightcode::sweep
