// Stage generate at analytical fidelity (no SystemC here; tests/sc/test_stream.cpp runs it on
// the engine): each decode step's KV-cache length, and a report holding every step's tasks.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/stages/generate/generate_stage.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/point.hpp"
#include "tests/support/python.hpp"
#include "tests/support/scratch.hpp"
#include "tests/support/graph_queries.hpp"

using namespace lightcode;
using test::ends_with;

namespace {


// The peak resident set (KiB) of `lightcode run <scenario> --out <out>` as a process of its own.
long peak_rss_kib(const std::string& scenario, const std::string& out) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    const std::string binary = test::lightcode_binary();
    ::execl(binary.c_str(), binary.c_str(), "run", scenario.c_str(), "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return usage.ru_maxrss;
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
  const ir::Graph prefill = sweep::point_graph(sweep::generation_step(p, 0));
  INFO(prefill.source());
  CHECK(ends_with(prefill.source(), "prefill/20"));
  for (int64_t t = 1; t < 5; ++t) {
    const sweep::PointSpec step = sweep::generation_step(p, t);
    CHECK(step.stage == Stage::decode);
    CHECK(step.sequence_length == 20 + t - 1);
    const ir::Graph g = sweep::point_graph(step);
    INFO(g.source());
    CHECK(ends_with(g.source(), "decode/" + std::to_string(20 + t - 1)));
  }
}

TEST_CASE(
    "generation report: every step's tasks with a step column and absolute times when asked (analytical)") {
  const sweep::PointSpec p = test::generate_point("gpt2", 16, 4, "cpu_phu.yaml");
  sweep::PointOptions every;
  every.every_task = true;  // as a listing asks
  const sweep::PointRun run = sweep::run_point(p, every);
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

TEST_CASE("generation report: without a listing, the first two steps' rows and every figure the same to the bit") {
  const sweep::PointSpec p = test::generate_point("gpt2", 16, 5, "cpu_phu.yaml");
  sweep::PointOptions every;
  every.every_task = true;
  const results::PointResult all = sweep::run_point(p, every).result;
  const results::PointResult lean = sweep::run_point(p).result;
  // Rows: exactly the prefill's and the first decode step's, as in the full table.
  size_t kept = 0;
  while (kept < all.tasks.size() && all.tasks[kept].step < 2) ++kept;
  REQUIRE(kept < all.tasks.size());
  REQUIRE(lean.tasks.size() == kept);
  for (size_t i = 0; i < kept; ++i) {
    CHECK(lean.tasks[i].id == all.tasks[i].id);
    CHECK(lean.tasks[i].start == all.tasks[i].start);
    CHECK(lean.tasks[i].end == all.tasks[i].end);
    CHECK(lean.tasks[i].inputs == all.tasks[i].inputs);
    CHECK(lean.tasks[i].step == all.tasks[i].step);
  }
  // Every figure over all five steps, bit for bit.
  const results::PointSummary &a = all.summary, &b = lean.summary;
  CHECK(b.makespan == a.makespan);
  CHECK(b.energy_pj == a.energy_pj);
  CHECK(b.nodes == a.nodes);
  CHECK(b.ttft_s == a.ttft_s);
  CHECK(b.tpot_s == a.tpot_s);
  CHECK(b.energy_per_token_pj == a.energy_per_token_pj);
  REQUIRE(lean.units.size() == all.units.size());
  for (size_t i = 0; i < all.units.size(); ++i) {
    CHECK(lean.units[i].name == all.units[i].name);
    CHECK(lean.units[i].busy == all.units[i].busy);
    CHECK(lean.units[i].energy_pj == all.units[i].energy_pj);
    CHECK(lean.units[i].tasks == all.units[i].tasks);
    CHECK(lean.units[i].utilisation == all.units[i].utilisation);
  }
  REQUIRE(lean.energy.size() == all.energy.size());
  for (size_t i = 0; i < all.energy.size(); ++i) {
    CHECK(lean.energy[i].hardware == all.energy[i].hardware);
    CHECK(lean.energy[i].category == all.energy[i].category);
    CHECK(lean.energy[i].energy_pj == all.energy[i].energy_pj);
  }
}

#if defined(__SANITIZE_ADDRESS__)  // gcc
#define LIGHTCODE_TEST_ASAN 1
#elif defined(__has_feature)         // clang
#if __has_feature(address_sanitizer)
#define LIGHTCODE_TEST_ASAN 1
#endif
#endif

TEST_CASE("generation: peak memory does not grow with the tokens (1024 and 8192 tokens within 20 %)") {
#ifdef LIGHTCODE_TEST_ASAN
  // ASan holds freed memory in quarantine: its resident set grows with what was ever allocated.
  MESSAGE("SKIP: peak memory under AddressSanitizer says nothing about the program's own");
  std::exit(test::kSkipExitCode);
#endif
  // gpt2, not Llama-2-7B: the lightcode profile's sum selection takes about 3 ms a gpt2 step, so
  // 8192 tokens take tens of seconds, where each Llama-2-7B step is a selection of seconds
  // (docs/PERFORMANCE.md, "Serving Llama-class models"). Before the report kept per-step sums,
  // 1024 tokens held every step's tasks: 1.5 GB.
  const test::Scratch s;
  const auto scenario = [&](int64_t tokens) {
    return s.file("gen" + std::to_string(tokens) + ".yaml",
                  "name: gen\nmodel: gpt2\nstage: generate\nsequence_length: 16\nnew_tokens: " +
                      std::to_string(tokens) + "\nprofile: lightcode\nfidelity: analytical\nsystem: " +
                      test::system_file("gpu", "lightcode") + "\n");
  };
  const long few = peak_rss_kib(scenario(1024), s.path("few.h5"));
  const long many = peak_rss_kib(scenario(8192), s.path("many.h5"));
  MESSAGE("peak resident set: " << few << " KiB at 1024 tokens, " << many << " KiB at 8192");
  CHECK(static_cast<double>(many) < 1.2 * static_cast<double>(few));
}

TEST_CASE("generation with placement_reuse: by_class: one sequence's figures within 1 % of every step searched") {
  // Each step takes the placement of its representative (the KV length rounded down to a power
  // of two), guarded by list scheduling: a graph is searched afresh when list scheduling does
  // over 1 % better from its own search's start, so a reused step is never more than about 1 %
  // worse, and may be better (the representative's search found a placement the graph's own,
  // with its budget, did not).
  for (const char* system : {"h100_sxm.yaml", "gpu_dota_b.yaml"}) {
    CAPTURE(system);
    // KV lengths 124..135: representatives 64 and 128.
    sweep::PointSpec searched = test::generate_point("gpt2", 124, 12, system);
    sweep::PointSpec reused = searched;
    reused.placement_reuse = serve::PlacementReuseMode::by_class;
    const results::PointSummary a = sweep::run_point(searched).result.summary;
    const results::PointSummary b = sweep::run_point(reused).result.summary;
    CHECK(b.makespan.seconds() <= 1.01 * a.makespan.seconds());
    CHECK(b.ttft_s <= 1.01 * a.ttft_s);
    CHECK(b.tpot_s <= 1.01 * a.tpot_s);
    CHECK(b.energy_pj == doctest::Approx(a.energy_pj).epsilon(0.02));
    // The reused steps ran no search of their own.
    CHECK(b.placement_evaluations < a.placement_evaluations);
  }
}

TEST_CASE("generation planned ahead on threads: every figure and row the same as on one thread") {
  // Each step's plan depends on its own graph (and, reused, its class's representative) only,
  // so the thread count changes when a step is planned, never what it gives.
  for (const auto reuse : {serve::PlacementReuseMode::none, serve::PlacementReuseMode::by_class}) {
    CAPTURE(serve::placement_reuse_name(reuse));
    sweep::PointSpec p = test::generate_point("gpt2", 60, 12, "gpu_dota_b.yaml");
    p.placement_reuse = reuse;
    sweep::PointOptions one, three;
    one.every_task = three.every_task = true;
    one.threads = 1;
    three.threads = 3;
    const results::PointResult a = sweep::run_point(p, one).result;
    const results::PointResult b = sweep::run_point(p, three).result;
    CHECK(b.summary.makespan == a.summary.makespan);
    CHECK(b.summary.energy_pj == a.summary.energy_pj);
    CHECK(b.summary.tpot_s == a.summary.tpot_s);
    CHECK(b.summary.placement_evaluations == a.summary.placement_evaluations);
    CHECK(b.summary.photonic_selected == a.summary.photonic_selected);
    REQUIRE(b.tasks.size() == a.tasks.size());
    for (size_t i = 0; i < a.tasks.size(); ++i) {
      CHECK(b.tasks[i].name == a.tasks[i].name);
      CHECK(b.tasks[i].hardware == a.tasks[i].hardware);
      CHECK(b.tasks[i].start == a.tasks[i].start);
      CHECK(b.tasks[i].end == a.tasks[i].end);
      CHECK(b.tasks[i].energy_pj == a.tasks[i].energy_pj);
    }
  }
}
