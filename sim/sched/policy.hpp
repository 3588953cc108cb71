#pragma once
// Scheduling policies: which task starts where, and when. A policy is a registered, stateless
// object (`lightcode list schedulers` lists them; a scenario picks one with `scheduler:`, else its
// profile's default). For each run it makes a Dispatcher, which a driver — the analytical
// scheduler (sim/sched/analytical.hpp) or the SystemC engine (sim/engine) — feeds with facts
// and asks for decisions. Both drivers feed the same facts in the same order at the same
// times, so with link contention off their timelines are equal to the picosecond.
//
// The driver's side of the contract:
//  - at time 0 it reports every task without inputs as arrived;
//  - at each time t it first reports every task that finished at t (finished) and every task
//    whose inputs have all arrived at t (arrived: the latest producer end + that input's
//    transfer time, or later when links queue), then calls next(t) until it returns nothing;
//  - it carries out a decision {task, instance, start >= t} as given: the task runs on that
//    instance from `start` for its cost's time (the policy keeps instances from overlapping);
//  - when every task has finished it sets the makespan to the latest end and calls
//    complete(schedule), where a policy may apply its own conventions.
// A dispatcher that never decides on some task leaves the driver with nothing to wait for:
// the driver reports that as an error naming the policy.
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/named_registry.hpp"
#include "sim/core/quantity.hpp"
#include "sim/opt/task_graph.hpp"
#include "sim/sched/schedule.hpp"

namespace lightcode::sched {

struct Decision {
  opt::TaskId task = 0;
  int32_t instance = 0;
  Time start;
};

class Dispatcher {
 public:
  virtual ~Dispatcher() = default;
  virtual void arrived(opt::TaskId task, Time at) = 0;
  virtual void finished(opt::TaskId task, Time at) = 0;
  virtual std::optional<Decision> next(Time now) = 0;
  virtual void complete(Schedule& /*schedule*/) {}
  // False for a dispatcher whose decisions ignore arrivals and finishes (a plan made up front):
  // the analytical driver then carries them out without simulating events, which gives the
  // same timeline; the engine still runs them through its events.
  virtual bool reacts() const { return true; }
};

class SchedulingPolicy {
 public:
  virtual ~SchedulingPolicy() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  // instances[t]: how many tasks unit type t runs at once.
  virtual std::unique_ptr<Dispatcher> dispatcher(const opt::TaskGraph& tasks,
                                                 const std::vector<int>& instances) const = 0;
};

// Explicit registry (no self-registration): register_policies() adds every policy.
struct PolicyRegistry : NamedRegistry<SchedulingPolicy> {
  PolicyRegistry() : NamedRegistry("scheduler") {}
};

// Adds `list` (sim/sched/list_policy.cpp) and `lightcode` (lightcode_policy.cpp).
void register_policies(PolicyRegistry& registry);
const PolicyRegistry& default_policies();

std::unique_ptr<SchedulingPolicy> make_list_policy();
std::unique_ptr<SchedulingPolicy> make_lightcode_policy();

}  // namespace lightcode::sched
