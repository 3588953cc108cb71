#pragma once
// Placement decided with the schedule (the default profile; the `lightcode` profile keeps the
// original's sum selection, opt::place). Every placement tried is expanded (opt::expand),
// timed by the point's scheduling policy and charged as the report charges it
// (sched::reported_cost), so `time` is the reported makespan, `energy` the reported total with
// static power x makespan, and `edp` their product: the objective is what the report prints.
//
// The search fills one archive of non-dominated (makespan, energy) placements, and every
// objective's answer is the archive's minimum for it. The archive depends on the objective
// through the seeds each objective runs (below). Candidates, in this order:
//   - exhaustive: when the consistent placements number at most kExhaustiveLimit, all of them,
//     so the answer is the optimum over placements for the point's scheduler (`exact`);
//   - otherwise seeds: the sum selection (opt::place) for time, for edp, and for
//     energy + P x time over a geometric grid of powers P around the time seed's average
//     power (the system's static power, P = 0 and 1e-9 of the average, which breaks ties of
//     energy by time, among them), each solving the sum problem the selector can solve exactly
//     (the EDP seed's fronts bounded by JointOptions::edp_seed, opt/bounded_selection.hpp:
//     within 5 % of the exact sum EDP by default). Seeds only for the objectives that need
//     them: the EDP seed for edp, the energy + P x time seeds for energy and edp (on large
//     batches they are most of a search; without them the shipped studies' figures are the
//     same and Llama serving moves by tenths of a percent: docs/PERFORMANCE.md "Serving
//     Llama-class models"); then list
//     scheduling on the unexpanded graph that gives each op the candidate finishing earliest
//     given the units' queues and its inputs' transfers (HEFT's rule; ops in the time seed's
//     fused groups keep them), and variants that weigh a candidate's energy against the
//     static energy a later finish costs;
//   - then, while the evaluation budget lasts, moves from the archive's members: every op of one
//     class (same kind and tensor types: the same op in every layer) onto another unit type.
// With the answer: a lower bound on its objective (time: the longer of the critical path with
// every op at its fastest candidate and the total of the fastest times over every unit
// instance; energy: every op at its least dynamic energy plus static power x that time; edp:
// their product) and the gap, answer / bound - 1.
// Deterministic: the budget counts evaluations, never wall time.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/opt/expand.hpp"
#include "sim/opt/objective.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/policy.hpp"
#include "sim/sched/reported_cost.hpp"

namespace lightcode::joint {

// Placements enumerated when there are at most this many (the `exact` answers).
inline constexpr int64_t kExhaustiveLimit = 4096;

// The joint search's default budget: placements expanded, scheduled and charged, at most
// (seeds first). The one home of scenario key `placement_evaluations`'s default.
inline constexpr int kDefaultEvaluations = 64;

struct JointOptions {
  int evaluations = kDefaultEvaluations;
  // Ops that run on a given unit type in every placement tried (a split product's halves,
  // split_search.hpp): each is put on its first single-op candidate there (opt::force_unit).
  std::vector<std::pair<ir::NodeId, hw::UnitType>> pinned;
  // How the EDP seed's sum selection bounds its Pareto fronts (opt::kExactSelection: exact).
  // The time and energy seeds keep one alternative per state and are exact either way.
  opt::SelectionBound edp_seed = opt::kBoundedSelection;
  // Whether the time objective's search also starts from the energy + P x time seeds (the other
  // objectives always do). Off by default: on llama-2-7b serving they were three quarters of
  // its CPU, and every single-device study's figures are the same without them
  // (docs/PERFORMANCE.md, "Serving Llama-class models"). A point over several devices turns
  // them on (sim/point/pipeline.cpp): on Llama-2-70B decode at tensor parallelism 8 on a DGX
  // A100 (scenarios/tp_scaling.yaml) they hold a placement 0.7 % faster than any the time
  // seeds and moves reach (small element-wise ops on the host beside the GPU).
  bool energy_seeds_for_time = false;
};

struct ParetoPoint {
  Time makespan;
  double energy_pj = 0.0;
  std::string origin;  // how the search found it: "sum:time", "heft:time", "move", "exhaustive"
};

struct JointResult {
  opt::Placement placement;  // the answer for the objective
  opt::TaskGraph tasks;      // its expansion
  sched::Schedule schedule;  // its timeline
  sched::ReportedCost cost;  // what the report charges for it
  std::string origin;
  double score = 0.0;        // the objective's value (ps, pJ or ps x pJ; objective.hpp)
  double lower_bound = 0.0;  // no placement scores less
  double gap = 0.0;          // score / lower_bound - 1 (0 when the bound is 0)
  bool exact = false;        // every placement was tried
  int evaluations = 0;
  std::vector<ParetoPoint> front;  // the archive, by makespan
  // The EDP seed's certified bound above the exact sum selection's EDP (Placement::gap_bound;
  // 0: its fronts were not thinned, the seed is the exact one).
  double edp_seed_gap_bound = 0.0;
};

// Throws lightcode::Error as opt::place, opt::expand and the scheduler do.
JointResult place_jointly(const opt::StackedGraph& stacks, const opt::Partition& part,
                          opt::Objective objective, const sched::SchedulingPolicy& policy,
                          const JointOptions& options = {});

// The lower bounds alone (time in ps, energy in pJ), for tests and reports.
struct LowerBound {
  Time makespan;
  double energy_pj = 0.0;
  double score(opt::Objective objective) const;
};
LowerBound lower_bound(const opt::StackedGraph& stacks);

}  // namespace lightcode::joint
