#pragma once
// Stage generate: the prefill of the P-token prompt gives the first token; decode step t
// (t = 1 .. T-1, T = new_tokens) gives token t + 1, feeding one token against a KV cache of the
// P + t - 1 tokens before it. Each step is a graph of its own; the steps run one after another
// as graph_sequence.hpp runs graphs (planned ahead, one SystemC session at event fidelity, one
// report over every step whose task rows keep the prefill's and the first decode step's only
// unless every task is asked for, so that a long generation's memory does not grow with its
// tokens: a Llama-2-7B decode step has about a thousand tasks). Summary: graph_sequence.hpp's,
// with makespan = the whole generation, ttft_s = the prefill's makespan, tpot_s = the mean
// decode step's, energy_per_token_pj = energy / T.
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
