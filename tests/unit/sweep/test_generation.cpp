// Stage generate at analytical fidelity (no SystemC here; tests/sc/test_stream.cpp runs it on
// the engine): each decode step's KV-cache length, and a report holding every step's tasks.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/stages/generate/generate_stage.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<int64_t> ids_in(const std::string& list) {
  std::vector<int64_t> out;
  std::stringstream in(list);
  std::string id;
  while (std::getline(in, id, ',')) out.push_back(std::stoll(id));
  return out;
}

}  // namespace

TEST_CASE("generation: decode step t feeds one token against a KV cache of P + t - 1 tokens") {
  const sweep::PointSpec p = test::generate_point("gpt2", 20, 5, "cpu.yaml");
  const ir::Graph prefill = sweep::point_inputs(sweep::generation_step(p, 0)).graph;
  INFO(prefill.source());
  CHECK(ends_with(prefill.source(), "prefill/20"));
  for (int64_t t = 1; t < 5; ++t) {
    const sweep::PointSpec step = sweep::generation_step(p, t);
    CHECK(step.stage == Stage::decode);
    CHECK(step.sequence_length == 20 + t - 1);
    const ir::Graph g = sweep::point_inputs(step).graph;
    INFO(g.source());
    CHECK(ends_with(g.source(), "decode/" + std::to_string(20 + t - 1)));
  }
}

TEST_CASE(
    "generation report: every step's tasks with a step column and absolute times (analytical)") {
  const sweep::PointSpec p = test::generate_point("gpt2", 16, 4, "cpu_phu.yaml");
  const sweep::PointRun run = sweep::run_point(p);
  const results::PointResult& r = run.result;
  const results::PointSummary& s = r.summary;
  CHECK(s.stage == "generate");
  CHECK(s.fidelity == "analytical");
  // Rows are grouped by step, in order, as many as each step's own plan has tasks.
  size_t row = 0;
  Time step_start, prefill_end;
  for (int32_t step = 0; step < 4; ++step) {
    const sweep::PlannedPoint plan = sweep::plan_point(sweep::generation_step(p, step));
    const size_t first = row;
    Time end = step_start;
    for (size_t k = 0; k < plan.run.tasks.tasks.size(); ++k, ++row) {
      REQUIRE(row < r.tasks.size());
      const results::TaskRecord& t = r.tasks[row];
      CHECK(t.step == step);
      CHECK(t.id == static_cast<int64_t>(row));
      CHECK(t.name == plan.run.tasks.tasks[k].name);
      // The step's own analytical timeline, shifted to where the step starts.
      CHECK(t.start == step_start + plan.run.schedule.slots[k].start);
      CHECK(t.end == step_start + plan.run.schedule.slots[k].end);
      for (const int64_t in : ids_in(t.inputs)) {
        CHECK(in >= static_cast<int64_t>(first));
        CHECK(in < t.id);
      }
      end = std::max(end, t.end);
    }
    CHECK(end == step_start + plan.run.schedule.makespan);
    if (step == 0) prefill_end = end;
    step_start = end;
  }
  CHECK(row == r.tasks.size());
  CHECK(s.makespan == step_start);
  CHECK(s.analytical_makespan == step_start);
  CHECK(s.ttft_s == prefill_end.seconds());
  CHECK(s.tpot_s == doctest::Approx((step_start - prefill_end).seconds() / 3).epsilon(1e-12));
  CHECK(s.nodes > 0);
  CHECK(s.energy_per_token_pj == doctest::Approx(s.energy_pj / 4).epsilon(1e-12));
  // Unit rows sum the steps: the busy time of every row adds up to the tasks' time.
  Time busy, tasks_time;
  for (const results::UnitRecord& u : r.units) busy = busy + u.busy;
  for (const results::TaskRecord& t : r.tasks) tasks_time = tasks_time + (t.end - t.start);
  CHECK(busy == tasks_time);
}

TEST_CASE("generation: a TVM graph file is still an error for stage generate") {
  sweep::PointSpec p = test::generate_point("gpt2", 16, 2, "cpu.yaml");
  p.model = "/tmp/some_graph.json";
  p.fidelity = Fidelity::event;
  CHECK_THROWS_WITH_AS(sweep::run_point(p), doctest::Contains("needs a built-in model"), Error);
}
