// The stream engine (engine::Session): task graphs one after another on one elaborated system,
// and stage generate at event fidelity, which runs on it. SystemC elaborates once per process:
// every test case here opens at most one session; ctest runs each case in its own process.
#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "hw_models/system.hpp"
#include "sim/engine/engine.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/stages/generate/generate_stage.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/files.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;
using lightcode::test::slurp;

namespace {

// The task graphs of a generate point's first `steps` steps (prefill, then decode steps), each
// planned as run_point plans it, with the prefill's system and policy.
struct Steps {
  sweep::PlannedPoint prefill;
  std::vector<opt::TaskGraph> graphs;
};

Steps generation_graphs(const sweep::PointSpec& point, int64_t steps) {
  Steps out{sweep::plan_point(sweep::generation_step(point, 0)), {}};
  out.graphs.push_back(out.prefill.run.tasks);
  for (int64_t t = 1; t < steps; ++t)
    out.graphs.push_back(sweep::plan_point(sweep::generation_step(point, t)).run.tasks);
  return out;
}

// Slot by slot, to the picosecond; reports the first few that differ.
void check_same_schedule(const sched::Schedule& a, const sched::Schedule& b) {
  REQUIRE(a.slots.size() == b.slots.size());
  size_t differ = 0;
  for (size_t i = 0; i < a.slots.size(); ++i) {
    const sched::Slot &x = a.slots[i], &y = b.slots[i];
    if (x.start != y.start || x.end != y.end || x.instance != y.instance) {
      if (differ++ < 5)
        MESSAGE("task " << i << ": " << x.start.count_ps() << ".." << x.end.count_ps() << " on "
                        << x.instance << " vs " << y.start.count_ps() << ".." << y.end.count_ps()
                        << " on " << y.instance);
    }
  }
  CHECK(differ == 0);
  CHECK(a.makespan == b.makespan);
}

// Everything a run measured, but where it started and the wall times.
void check_same_result(const engine::EventResult& a, const engine::EventResult& b) {
  check_same_schedule(a.schedule, b.schedule);
  REQUIRE(a.links.size() == b.links.size());
  for (size_t c = 0; c < a.links.size(); ++c) {
    INFO(a.links[c].name);
    CHECK(a.links[c].name == b.links[c].name);
    CHECK(a.links[c].busy == b.links[c].busy);
    CHECK(a.links[c].queue_delay == b.links[c].queue_delay);
    CHECK(a.links[c].transfers == b.links[c].transfers);
    CHECK(a.links[c].bytes == b.links[c].bytes);
    CHECK(a.links[c].energy_pj == b.links[c].energy_pj);
  }
  REQUIRE(a.memory.size() == b.memory.size());
  for (size_t i = 0; i < a.memory.size(); ++i) {
    CHECK(a.memory[i].time == b.memory[i].time);
    CHECK(a.memory[i].sram_bytes == b.memory[i].sram_bytes);
    CHECK(a.memory[i].hbm_bytes == b.memory[i].hbm_bytes);
  }
  REQUIRE(a.transfers.size() == b.transfers.size());
  for (size_t i = 0; i < a.transfers.size(); ++i) {
    CHECK(a.transfers[i].producer == b.transfers[i].producer);
    CHECK(a.transfers[i].consumer == b.transfers[i].consumer);
    CHECK(a.transfers[i].channel == b.transfers[i].channel);
    CHECK(a.transfers[i].start == b.transfers[i].start);
    CHECK(a.transfers[i].end == b.transfers[i].end);
  }
  CHECK(a.static_energy_pj == b.static_energy_pj);
  CHECK(a.conversion == b.conversion);
  CHECK(a.sram_spills == b.sram_spills);
  CHECK(a.sram_peak_bytes == b.sram_peak_bytes);
  CHECK(a.hbm_peak_bytes == b.hbm_peak_bytes);
}

}  // namespace

namespace {

// Runs a generate point's first `steps` graphs on one session with contention off: each
// iteration is its graph's analytical schedule to the picosecond, starting where the previous
// one ended (its start + makespan). Returns where the last ended.
Time check_stream_is_analytical(const sweep::PointSpec& point, int64_t steps) {
  const Steps s = generation_graphs(point, steps);
  const hw::System& system = *s.prefill.system;
  const sched::SchedulingPolicy& policy = *s.prefill.policy;
  engine::EngineOptions o;
  o.contention = false;
  engine::Session session(system, o, policy);
  Time start;
  for (const opt::TaskGraph& graph : s.graphs) {
    const engine::EventResult r = session.run(graph);
    const sched::Schedule analytical =
        sched::schedule(graph, sched::unit_instances(system), policy);
    CHECK(r.start == start);  // the barrier: the previous graph's last finish
    check_same_schedule(r.schedule, analytical);
    CHECK(r.static_energy_pj == hw::static_energy_pj(system, analytical.makespan));
    start = start + r.schedule.makespan;
    CHECK(session.now() == start);
  }
  session.close();
  return start;
}

}  // namespace

TEST_CASE(
    "stream engine: each iteration is the analytical schedule from where the last ended (list "
    "policy)") {
  // CPU/PHU has SRAM, HBM and links; contention off gives the analytical timeline.
  CHECK(check_stream_is_analytical(test::generate_point("gpt2", 24, 4, "cpu_phu.yaml"), 4) >
        Time::zero());
}

TEST_CASE(
    "stream engine: each iteration is the analytical schedule from where the last ended (lightcode "
    "policy)") {
  sweep::PointSpec p = test::generate_point("gpt2", 24, 3, "lightcode/cpu_phu.yaml");
  p.profile = "lightcode";
  CHECK(check_stream_is_analytical(p, 3) > Time::zero());
}

TEST_CASE(
    "stream engine: no state leaks between iterations (a graph gives the same result before and "
    "after another)") {
  // Contention on and transfers recorded: link queues, channel statistics, busy units, memory
  // occupancy and conversion time must all start afresh for every graph.
  const Steps s = generation_graphs(test::generate_point("gpt2", 24, 2, "cpu_phu.yaml"), 2);
  engine::EngineOptions o;
  o.record_transfers = true;
  engine::Session session(*s.prefill.system, o, *s.prefill.policy);
  const engine::EventResult decode_first = session.run(s.graphs[1]);
  const engine::EventResult prefill = session.run(s.graphs[0]);
  const engine::EventResult decode_again = session.run(s.graphs[1]);
  session.close();
  check_same_result(decode_first, decode_again);
  CHECK(decode_again.start == decode_first.schedule.makespan + prefill.schedule.makespan);
  // The comparison means something: the decode step moves data over links and holds memory.
  int64_t transfers = 0;
  for (const engine::ChannelStats& c : decode_again.links) transfers += c.transfers;
  CHECK(transfers > 0);
  CHECK(!decode_again.memory.empty());
  CHECK(!decode_again.transfers.empty());
  CHECK(decode_again.memory.front().time >= Time::zero());
  CHECK(decode_again.memory.back().time <= decode_again.schedule.makespan);
}

TEST_CASE(
    "generate at event fidelity without contention equals the analytical generate: TTFT TPOT "
    "energy and every task") {
  sweep::PointSpec p = test::generate_point("gpt2", 24, 4, "cpu_phu.yaml");
  p.fidelity = Fidelity::event;
  sweep::PointOptions o;
  o.engine.contention = false;
  o.every_task = true;
  const sweep::PointRun event = sweep::run_point(p, o);  // all four steps on one engine
  p.fidelity = Fidelity::analytical;
  sweep::PointOptions every;
  every.every_task = true;
  const sweep::PointRun analytical = sweep::run_point(p, every);
  const results::PointSummary &e = event.result.summary, &a = analytical.result.summary;
  CHECK(e.fidelity == "event");
  CHECK(a.fidelity == "analytical");
  CHECK(e.ttft_s == a.ttft_s);
  CHECK(e.tpot_s == a.tpot_s);
  CHECK(e.makespan == a.makespan);
  CHECK(e.makespan == e.analytical_makespan);
  CHECK(e.energy_pj == a.energy_pj);
  CHECK(e.energy_per_token_pj == a.energy_per_token_pj);
  CHECK(e.nodes == a.nodes);
  REQUIRE(event.result.tasks.size() == analytical.result.tasks.size());
  size_t differ = 0;
  for (size_t i = 0; i < event.result.tasks.size(); ++i) {
    const results::TaskRecord &x = event.result.tasks[i], &y = analytical.result.tasks[i];
    if (x.start != y.start || x.end != y.end || x.unit != y.unit || x.step != y.step ||
        x.inputs != y.inputs)
      ++differ;
  }
  CHECK(differ == 0);
  CHECK(event.result.tasks.back().step == 3);
}

TEST_CASE(
    "generate at event fidelity in one process: every step's rows at absolute times and a trace of "
    "all steps") {
  sweep::PointSpec p = test::generate_point("gpt2", 24, 4, "cpu_phu.yaml");
  p.fidelity = Fidelity::event;
  sweep::PointOptions o;  // contention on
  o.trace_path = "/tmp/lightcode_stream_trace_" + std::to_string(::getpid()) + ".json";
  const sweep::PointRun run = sweep::run_point(p, o);
  const results::PointResult& r = run.result;
  const results::PointSummary& s = r.summary;
  CHECK(s.fidelity == "event");
  CHECK(s.stage == "generate");
  // Steps in order; each starts after the previous one's last task has finished.
  std::vector<Time> first_start(4, Time::max()), last_end(4, Time::zero());
  std::vector<size_t> rows(4, 0);
  int32_t previous = 0;
  for (const results::TaskRecord& t : r.tasks) {
    REQUIRE(t.step >= previous);
    REQUIRE(t.step < 4);
    previous = t.step;
    const auto k = static_cast<size_t>(t.step);
    first_start[k] = std::min(first_start[k], t.start);
    last_end[k] = std::max(last_end[k], t.end);
    ++rows[k];
  }
  for (size_t k = 0; k < 4; ++k) CHECK(rows[k] > 0);
  for (size_t k = 1; k < 4; ++k) CHECK(first_start[k] >= last_end[k - 1]);
  CHECK(s.ttft_s == last_end[0].seconds());
  CHECK(s.makespan == last_end[3]);
  CHECK(s.tpot_s == doctest::Approx((last_end[3] - last_end[0]).seconds() / 3).epsilon(1e-12));
  // The memory profile runs over the whole generation.
  REQUIRE(!r.memory_profile.empty());
  CHECK(r.memory_profile.front().time < last_end[0]);
  CHECK(r.memory_profile.back().time > last_end[2]);
  // The trace has every step's slices.
  const std::string trace = slurp(o.trace_path);
  std::remove(o.trace_path.c_str());
  CHECK(trace.find("\"step\": 0") != std::string::npos);
  CHECK(trace.find("\"step\": 3") != std::string::npos);
}

TEST_CASE(
    "generate at event fidelity without a listing or trace: the first two steps' rows and samples, one peak sample "
    "per later step, units over every step") {
  sweep::PointSpec p = test::generate_point("gpt2", 24, 5, "cpu_phu.yaml");
  p.fidelity = Fidelity::event;
  const sweep::PointRun run = sweep::run_point(p);  // contention on, nothing asks for every task
  const results::PointResult& r = run.result;
  CHECK(r.summary.fidelity == "event");
  REQUIRE(!r.tasks.empty());
  CHECK(r.tasks.back().step == 1);
  Time second_end;
  for (const results::TaskRecord& t : r.tasks) second_end = std::max(second_end, t.end);
  // Every sample of steps 0 and 1, then one per decode step 2..4 at its start (the step's peak).
  REQUIRE(r.memory_profile.size() > 3);
  const size_t early = r.memory_profile.size() - 3;
  CHECK(r.memory_profile[early - 1].time <= second_end);
  CHECK(r.memory_profile[early].time == second_end);  // decode step 2 starts where step 1 ended
  for (size_t i = early; i < r.memory_profile.size(); ++i) {
    CHECK(r.memory_profile[i].hbm_bytes > 0);
    if (i > early) CHECK(r.memory_profile[i].time > r.memory_profile[i - 1].time);
  }
  CHECK(r.memory_profile.back().time < r.summary.makespan);
  // The sums cover every step (the analytical test in tests/unit/sweep/test_generation.cpp checks
  // them to the bit against a run that keeps every row; the engine allows one session here).
  CHECK(r.summary.nodes > static_cast<int64_t>(r.tasks.size()));
  int64_t unit_tasks = 0;
  for (const results::UnitRecord& u : r.units) {
    if (u.kind == "unit") unit_tasks += u.tasks;
  }
  CHECK(unit_tasks > static_cast<int64_t>(r.tasks.size()));  // the units count every step's tasks
}
