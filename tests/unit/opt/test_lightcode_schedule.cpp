// The `lightcode` scheduling policy (sim/sched/lightcode_policy.cpp, the original's) on small
// task graphs whose schedules are computed by hand: readiness order against graph order, one edge per task,
// subgraph barriers, `start` without unit time, graph inputs placed before their first
// consumer with the shift that keeps every start at or after 0.
#include <doctest/doctest.h>

#include <string>

#include "sim/sched/analytical.hpp"
#include "sim/sched/policy.hpp"

using namespace lightcode;

namespace {

opt::Task task(std::string name, ir::OpKind kind, hw::UnitType unit, int64_t ps,
               int32_t subgraph = 0) {
  opt::Task t;
  t.name = std::move(name);
  t.kind = kind;
  t.unit = unit;
  t.cost.time = Time::ps(ps);
  t.subgraph = subgraph;
  return t;
}

opt::TaskInput from(opt::TaskId producer, int64_t transfer_ps = 0) {
  opt::TaskInput in;
  in.producer = producer;
  in.transfer.time = Time::ps(transfer_ps);
  return in;
}

void check_slot(const sched::Schedule& s, size_t task, int64_t start, int64_t end) {
  CAPTURE(task);
  CHECK(s.slots[task].start.count_ps() == start);
  CHECK(s.slots[task].end.count_ps() == end);
}

constexpr hw::UnitType kCpu = 0, kPhu = 1, kHbm = 2, kStart = 3;
const std::vector<int> kOneEach{1, 1, 1, 1};

}  // namespace

TEST_CASE("lightcode policy: readiness order, where graph order gives a longer schedule") {
  // start -> p (PHU 10) -> x1 (CPU 2); start -> q (CPU 1) -> x2 (CPU 5). In graph order x1 takes
  // the CPU first and x2 waits for it; in readiness order q finishes first, so x2 runs at 1.
  opt::TaskGraph g;
  g.tasks.push_back(task("start", ir::OpKind::start, kStart, 0));
  g.tasks.push_back(task("p", ir::OpKind::dense, kPhu, 10));
  g.tasks.push_back(task("q", ir::OpKind::add, kCpu, 1));
  g.tasks.push_back(task("x1", ir::OpKind::add, kCpu, 2));
  g.tasks.push_back(task("x2", ir::OpKind::add, kCpu, 5));
  g.tasks[1].inputs = {from(0)};
  g.tasks[2].inputs = {from(0)};
  g.tasks[3].inputs = {from(1)};
  g.tasks[4].inputs = {from(2)};
  const sched::Schedule s =
      sched::schedule(g, kOneEach, sched::default_policies().at("lightcode"));
  check_slot(s, 1, 0, 10);
  check_slot(s, 2, 0, 1);
  check_slot(s, 4, 1, 6);    // x2 as soon as q finishes
  check_slot(s, 3, 10, 12);  // x1 after p, the CPU free since 6
  CHECK(s.makespan.count_ps() == 12);
  // Graph order (by hand): p [0, 10), q [0, 1), x1 [10, 12) after p, then x2 [12, 17) behind
  // x1 on the one CPU: makespan 17. Readiness order does not give that schedule.
  CHECK(s.slots[4].start < s.slots[3].start);
}

TEST_CASE(
    "original policy: one edge per task, barriers, graph inputs shifted before their consumer") {
  // Subgraph 0: m (graph input) -> a (CPU 100, edge 30), a -> b (CPU 50, edge 7), m -> b (edge 30).
  // Subgraph 1: c (PHU 20) after the barrier.
  opt::TaskGraph g;
  g.tasks.push_back(task("m", ir::OpKind::memory, kHbm, 0));
  g.tasks.push_back(task("start0", ir::OpKind::start, kStart, 0));
  g.tasks.push_back(task("a", ir::OpKind::add, kCpu, 100));
  g.tasks.push_back(task("b", ir::OpKind::add, kCpu, 50));
  g.tasks.push_back(task("start1", ir::OpKind::start, kStart, 0, 1));
  g.tasks.push_back(task("c", ir::OpKind::dense, kPhu, 20, 1));
  g.tasks[2].inputs = {from(1), from(0, 30)};
  g.tasks[3].inputs = {from(2, 7), from(0, 30)};
  g.tasks[5].inputs = {from(4)};
  g.subgraphs = 2;
  const sched::Schedule s = sched::schedule(g, kOneEach, sched::default_policies().at("lightcode"));
  // Unshifted: a [0, 100) released by start (no edge time); b [100, 150), then the CPU carries
  // the a -> b edge: busy until 157, b's finish. Barrier at 157: c [157, 177). m would start at
  // 0 - 30 = -30 (a's start less its edge): everything shifts by 30.
  check_slot(s, 0, 0, 0);
  check_slot(s, 2, 30, 130);
  check_slot(s, 3, 130, 180);
  check_slot(s, 5, 187, 207);
  CHECK(s.makespan.count_ps() == 207);
}
