#pragma once
// A `stage: serve` point (sim/serve): the point's requests, from its CSV trace or generated at
// its arrival rate, served by its replicas (each a system file under the point's profile, with
// its batching), dispatched by its policy; every iteration's cost is the real pipeline's for
// that batch (serve::PipelineIterationCost: the point's objective, scheduler and, for a
// profile that places with the schedule, its joint search). A replica's KV capacity is its
// input memory less the weights (serve::replica_memory); weights that do not fit are an error
// naming the replica, the bytes needed and held.
//
// Prompt-length dispatch reads a `lightcode crossover` dispatch table: its model, stage
// (prefill) and profile must be the point's, every system it routes to must be a replica (by
// system name), and every request's prompt must lie in its range; each is an error otherwise,
// naming the table (and the request).
//
// The report: summary headline figures (percentiles, throughput, goodput, energy per output
// token with every replica's static power over the run), one `units` row per replica (busy
// time, utilisation, dynamic and static energy, iterations), the energy by replica (dynamic,
// static), the per-request table and each replica's queue series. Iterations are timed
// analytically: the summary's fidelity is "analytical".
#include "sim/sweep/run_point.hpp"

namespace lightcode::sweep {

PointRun run_serving(const PointSpec& point);

}  // namespace lightcode::sweep
