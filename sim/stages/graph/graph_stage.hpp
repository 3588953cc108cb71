#pragma once
// Stages prefill and decode: one graph of the model (a prompt of sequence_length tokens, or
// one token against a KV cache of sequence_length), placed, expanded and scheduled on the
// point's system (sim/point/pipeline.hpp), then timed on the SystemC engine at event
// fidelity. Keys: sequence_length and system (required), traced_length (a TVM graph model),
// logits (a built-in model), precision (a system with a unit that models it), fidelity, and
// pareto and placement_evaluations (a profile that places with the schedule), tensor_parallel
// and pipeline_parallel (a built-in model: frontend/models/parallelism.hpp). Several devices:
// the point runs tensor rank 0's share (its collectives on the system's interconnect); with
// pipeline stages, each stage's share in turn (graph_sequence.hpp, every task row kept), a stage
// starting when the one before has sent its hidden states: one pass, no micro-batches.
#include "sim/stages/stage.hpp"

namespace lightcode::sweep {

StageInfo prefill_stage();
StageInfo decode_stage();

// The keys a point of one graph per step reads (prefill, decode, generate): sequence_length,
// system, logits, precision, fidelity, pareto, placement_evaluations, tensor_parallel (built-in
// models); generate reads them too.
void read_graph_keys(const Params& tree, PointSpec& point);
// A graph point's inputs: its model and its system (with overrides, under its profile).
void check_graph_inputs(const PointSpec& point, InputChecks& checks);

}  // namespace lightcode::sweep
