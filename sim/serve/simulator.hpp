#pragma once
// The serving simulation: a discrete-event run of one or more replicas serving a request
// stream. Requests are dispatched at arrival (dispatch.hpp); a free replica forms its next
// iteration by its batching policy (batching.hpp) under its KV capacity (replica_state.hpp)
// and is busy for the time its IterationCost gives, plus the engine's host time
// (ReplicaSpec::iteration_overhead and sequence_overhead). Times are integer ps, energies pJ.
//
// At each event time, in this order: iterations ending now complete (replicas by index), the
// requests arriving now are dispatched (input order), every free replica forms an iteration,
// and every replica's (queue, running) is sampled where it changed. Same inputs, same outputs:
// no randomness, no unordered containers.
//
// A request whose KV peak (prompt + output - 1 tokens) exceeds the capacity of the replica it
// is dispatched to can never run there: it is rejected at its arrival (RequestRecord::rejection
// says why; it holds no KV, produces no token and leaves no time behind), and the run goes on.
//
// Errors (lightcode::Error): no replica, a replica without a cost, a batching policy or with
// capacity < 1, no dispatcher or one naming a replica that does not exist, a request with no
// prompt or output tokens. A replica ever holding more KV than its capacity is an internal
// error (std::logic_error): the policies guarantee it never happens.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/serve/batching.hpp"
#include "sim/serve/dispatch.hpp"
#include "sim/serve/iteration_cost.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

struct ReplicaSpec {
  int64_t kv_capacity_tokens = 0;  // see kv_capacity_tokens() in iteration_cost.hpp
  std::shared_ptr<const Batcher> batching;  // its policy with its parameters
  std::shared_ptr<const IterationCost> cost;
  double static_power_w = 0.0;  // drawn for the whole run, busy or not
  // Host time an iteration adds, and per sequence in it, while the devices wait (a serving
  // engine's scheduling and output processing between steps): in its time, not its cost.
  Time iteration_overhead, sequence_overhead;
  // Power drawn above static_power_w during that host time (the devices wait but are not idle:
  // clocks up, the engine's small kernels), >= 0 W; charged with the iteration's energy.
  double overhead_extra_power_w = 0.0;
};

struct ServeSpec {
  std::vector<ReplicaSpec> replicas;
  // Bound to these replicas and requests; round robin unless set (dispatch_table()'s default:
  // a test compares them).
  std::shared_ptr<const Dispatcher> dispatch = make_round_robin();
  // Keep every iteration with its slots in ServeResult::iterations. Metrics (metrics.hpp) do
  // not read them; a long run may not afford them (100,000 requests under continuous
  // batching run 2.7 M iterations; kept, they took 660 MiB: docs/PERFORMANCE.md).
  bool keep_iterations = true;
};

struct RequestRecord {
  int64_t id = 0;
  size_t replica = 0;
  int64_t prompt_tokens = 0, output_tokens = 0;
  Time arrival;
  Time first_service;  // start of the first iteration it was part of
  Time first_token;    // end of the iteration that produced its first output token
  Time finish;         // end of the iteration that produced its last one
  int64_t preemptions = 0;
  // Why it was rejected at arrival ("" when served): its KV peak against the capacity of the
  // replica it was sent to. A rejected request's first_service, first_token and finish stay
  // unset (Time::max()).
  std::string rejection;

  bool rejected() const { return !rejection.empty(); }

  Time wait() const { return first_service - arrival; }
  Time ttft() const { return first_token - arrival; }
  Time latency() const { return finish - arrival; }
  // (finish - first token) / (output tokens - 1), in seconds; 0 for a single output token.
  double tpot_s() const;
};

// One sequence's part of an iteration, as run: `produced_token` when it yielded an output token
// (a decode step, or the last chunk of a prefill).
struct SlotRecord {
  size_t request = 0;  // index into the request list given to simulate_serving
  int64_t new_tokens = 0, context = 0;
  bool decode = false;
  bool produced_token = false;
};

struct IterationRecord {
  size_t replica = 0;
  Time start, end;
  Energy energy;
  int64_t kv_used = 0;  // KV tokens the replica held during it
  std::vector<SlotRecord> slots;
};

struct QueueSample {
  Time time;
  int64_t queue = 0;    // dispatched (or preempted) and waiting for admission
  int64_t running = 0;  // admitted, holding KV
};

struct ReplicaRecord {
  int64_t iterations = 0;
  Time busy;
  Energy dynamic_energy;
  int64_t peak_kv = 0;  // tokens
  std::vector<QueueSample> series;
};

struct ServeResult {
  std::vector<RequestRecord> requests;      // in input order
  std::vector<IterationRecord> iterations;  // in start order; empty unless keep_iterations
  int64_t iteration_count = 0;              // kept or not
  std::vector<ReplicaRecord> replicas;
  Time run_time;  // from time 0 to the last finish of a served request
  int64_t rejected = 0;  // requests rejected at arrival
  // The steady state, as ML.ENERGY's benchmark takes it: from time 0 until the waiting queue
  // first empties once every request has arrived (every replica's queue empty at an event:
  // the last waiting request admitted). What iterations that ended by then produced and spent.
  // steady_end 0: no steady state (nobody waited once all had arrived at time 0).
  Time steady_end;
  int64_t steady_output_tokens = 0;
  Energy steady_dynamic_energy;
  // Those iterations, and their sequences summed (a batch of s sequences counts s): what an
  // engine's per-iteration and per-sequence host time multiply (ReplicaSpec's overheads).
  int64_t steady_iterations = 0;
  int64_t steady_sequence_iterations = 0;
};

ServeResult simulate_serving(const std::vector<Request>& requests, const ServeSpec& spec);

}  // namespace lightcode::serve
