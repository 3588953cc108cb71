#pragma once
// One task graph's state while the event engine runs it (sim/engine/engine.cpp): who consumes
// each task's outputs, how many inputs each task still waits for, the scheduling policy's
// dispatcher, memory occupancy, transfers in flight, decisions waiting for their time or
// their instance, and the timeline of future events. Every time held here is relative to the
// graph's start (`origin`, absolute simulated time). The elaborated hardware outlives it: the
// engine makes a new GraphState for every graph it runs, so that nothing of one iteration
// (a pending count, a queued decision, an allocation) can leak into the next. No SystemC.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/engine/event_result.hpp"
#include "sim/engine/memory_tracker.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::engine {

struct GraphState {
  // `spill_sram`: see EngineOptions. The dispatcher is made here, and every task without
  // inputs is reported to it as arrived at time 0.
  GraphState(const opt::TaskGraph& graph, const hw::System& system, bool spill_sram,
             const sched::SchedulingPolicy& policy, Time origin);

  struct Use {
    opt::TaskId consumer;
    int32_t position;  // which of the consumer's inputs
  };
  struct Transfer {
    opt::TaskId consumer;
    int32_t record;  // index into records when transfers are recorded, else -1
    int64_t bytes;
    const std::vector<int>* route;
    size_t hop = 0;
  };
  struct Event {
    enum Kind { arrival, hop, start } kind;
    int32_t index;  // task (arrival, start) or transfer (hop)
  };
  struct Timed {
    Time at;
    int64_t seq;  // ties keep the order they were scheduled in
    Event event;
    bool operator>(const Timed& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  // The consumers of task t's outputs: uses[use_begin[t] .. use_begin[t + 1]).
  size_t consumers(size_t t) const { return use_begin[t + 1] - use_begin[t]; }

  const opt::TaskGraph& graph;
  const std::vector<opt::Task>& tasks;
  Time origin;
  MemoryTracker memory;
  EventResult result;  // slots filled as tasks start and finish
  std::vector<uint32_t> use_begin;
  std::vector<Use> uses;
  std::vector<int32_t> pending;  // inputs not yet arrived
  std::unique_ptr<sched::Dispatcher> dispatcher;
  std::vector<int32_t> planned_instance;  // decided instance of a task starting later
  std::vector<opt::TaskId> due;           // planned tasks whose start time has come
  std::vector<std::vector<std::deque<opt::TaskId>>> deferred;  // per instance: decided, waiting
  std::vector<Transfer> transfers;
  std::vector<TransferRecord> records;
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> timeline;
  int64_t seq = 0;
  size_t finished = 0;
};

}  // namespace lightcode::engine
