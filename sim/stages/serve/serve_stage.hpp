#pragma once
// Stage serve (sim/serve): the point's requests, from its CSV trace or generated at its arrival
// rate, served by its replicas (each a system file under the point's profile, with its
// batching policy: the replica's own keys merged over the scenario's `batching`; `system:`
// alone is one replica of it, so that a study can sweep systems), dispatched by its policy;
// every iteration's cost is the real pipeline's for that batch (serve::PipelineIterationCost: the point's objective, scheduler and, for a
// profile that places with the schedule, its joint search; `iteration_layers`: every decoder
// layer built, or extrapolated from one and two; by default every layer up to 12, extrapolated
// above: serve::kAllLayersUpTo), composed from a few exact batch
// costs unless `iteration_cost: exact`. A replica's KV capacity is its
// input memory less the weights (serve::replica_memory); weights that do not fit are an error
// naming the replica, the bytes needed and held. A request whose KV peak never fits the replica
// it is dispatched to is rejected at arrival, not a failed point: summary `rejected`, and its
// row's `status` "rejected" with the `reason`.
//
// Prompt-length dispatch reads a `lightcode crossover` dispatch table
// (sim/serve/dispatch_prompt_length.hpp).
//
// The report: summary headline figures (percentiles, throughput, goodput, energy per output
// token with every replica's static power over the run), one `units` row per replica (busy
// time, utilisation, dynamic and static energy, iterations), the energy by replica (dynamic,
// static), the per-request table and each replica's queue series. Iterations are timed
// analytically: the summary's fidelity is "analytical".
#include "sim/stages/stage.hpp"

namespace lightcode::sweep {

StageInfo serve_stage();
// The scenario keys stage serve reads (docs/CONFIG.md).
const ParamTable& serve_table();

PointRun run_serving(const PointSpec& point, const PointOptions& options = {});

}  // namespace lightcode::sweep
