// The crossover study: the generic bracketing + bisection search on costs with known
// crossings, the GPT-2 dispatch table against run_point either side of each boundary, per-op
// photonic thresholds against direct comparisons at T-1 and T (and a full scan), and the
// scenario's input errors.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/opt/threshold.hpp"
#include "sim/sweep/crossover.hpp"
#include "sim/serve/dispatch_table.hpp"
#include "sim/sweep/tables.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

std::string system_path(const std::string& name) { return test::system_file(name, "lightcode"); }

sweep::CrossoverScenario gpt2_scenario(std::vector<std::string> systems, std::vector<std::string> objectives,
                                       int64_t lo, int64_t hi) {
  sweep::CrossoverScenario s;
  s.name = "test";
  s.model = "gpt2";
  s.profile = "lightcode";
  for (const std::string& n : systems) s.systems.push_back(system_path(n));
  s.objectives = std::move(objectives);
  s.start = lo;
  s.stop = hi;
  return s;
}

std::string error_of(const std::string& text) {
  try {
    sweep::parse_crossover(text, "bad.yaml", test::source_dir() + "/scenarios");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kGood =
    "name: x\nmodel: gpt2\nprofile: lightcode\n"
    "systems: [../configs/systems/lightcode/cpu.yaml, ../configs/systems/lightcode/cpu_phu.yaml]\n"
    "objectives: [time]\nlengths: {start: 1, stop: 64}\n";

}  // namespace

TEST_CASE("two options with one crossing: found exactly, with far fewer evaluations than lengths") {
  // a = 1000 + 3L, b = 10L: b is cheaper up to 142 (1420 < 1426), a from 143 (1429 < 1430).
  size_t calls = 0;
  const auto cost = [&](int option, int64_t l) {
    ++calls;
    const double x = static_cast<double>(l);
    return option == 0 ? 1000.0 + 3.0 * x : 10.0 * x;
  };
  const sweep::CrossoverSearch r = sweep::find_crossovers(2, 1, 100000, cost);
  REQUIRE(r.segments.size() == 2);
  CHECK(r.segments[0].from == 1);
  CHECK(r.segments[0].to == 142);
  CHECK(r.segments[0].best == 1);
  CHECK(r.segments[1].from == 143);
  CHECK(r.segments[1].to == 100000);
  CHECK(r.segments[1].best == 0);
  CHECK(r.segments[0].cost_to == doctest::Approx(1420.0));
  CHECK(r.segments[1].cost_from == doctest::Approx(1429.0));
  CHECK(r.evaluations == calls);  // memoised: every (option, length) once
  CHECK(r.evaluations < 100);
  MESSAGE("two options over 100000 lengths: " << r.evaluations << " evaluations");
}

TEST_CASE("three options with two crossings, ties to the lower index, both in one bracket too") {
  // c0 = 2L, c1 = 300 + L, c2 = 1000 + L/2: ties at 300 (c0 = c1) and 1400 (c1 = c2) go to the
  // lower index, so c1 wins from 301 and c2 from 1401.
  const auto cost = [](int option, int64_t l) {
    const double x = static_cast<double>(l);
    return option == 0 ? 2.0 * x : option == 1 ? 300.0 + x : 1000.0 + 0.5 * x;
  };
  for (int grid : {20, 2}) {  // with 2 grid points both switches share the single bracket
    CAPTURE(grid);
    const sweep::CrossoverSearch r = sweep::find_crossovers(3, 1, 5000, cost, grid);
    REQUIRE(r.segments.size() == 3);
    CHECK(r.segments[0].best == 0);
    CHECK(r.segments[0].to == 300);
    CHECK(r.segments[1].best == 1);
    CHECK(r.segments[1].from == 301);
    CHECK(r.segments[1].to == 1400);
    CHECK(r.segments[2].best == 2);
    CHECK(r.segments[2].from == 1401);
    CHECK(r.segments[2].to == 5000);
    CHECK(r.lengths_probed < 60);
  }
  CHECK_THROWS_AS(sweep::find_crossovers(1, 1, 10, cost), Error);
  CHECK_THROWS_AS(sweep::find_crossovers(2, 10, 9, cost), Error);
  const sweep::CrossoverSearch one = sweep::find_crossovers(3, 7, 7, cost);
  REQUIRE(one.segments.size() == 1);
  CHECK(one.segments[0].from == 7);
  CHECK(one.segments[0].to == 7);
}

TEST_CASE("GPT-2 CPU vs CPU/PHU: the dispatch table agrees with run_point either side of each boundary") {
  const sweep::CrossoverScenario s = gpt2_scenario({"cpu", "cpu_phu"}, {"time", "energy"}, 1, 160);
  const sweep::CrossoverResult r = sweep::run_crossover(s);
  REQUIRE(r.tables.size() == 2);
  size_t boundaries = 0;
  for (const sweep::DispatchTable& t : r.tables) {
    CAPTURE(t.objective);
    REQUIRE_FALSE(t.ranges.empty());
    CHECK(t.ranges.front().from == 1);
    CHECK(t.ranges.back().to == 160);
    CHECK(t.lengths_probed < 80);
    const auto winner = [&](int64_t l) {  // ties go to the first system, as in the search
      const double a = sweep::point_cost(s, s.systems[0], t.objective, l);
      const double b = sweep::point_cost(s, s.systems[1], t.objective, l);
      return b < a ? 1 : 0;
    };
    for (size_t i = 0; i < t.ranges.size(); ++i) {
      const sweep::DispatchRange& d = t.ranges[i];
      if (i > 0) CHECK(d.from == t.ranges[i - 1].to + 1);
      CHECK(winner(d.from) == d.system);
      CHECK(winner(d.to) == d.system);
      if (i > 0) {
        ++boundaries;
        CHECK(winner(d.from - 1) == t.ranges[i - 1].system);
      }
    }
  }
  // CPU/PHU is faster from one token on; for energy the CPU is as good (same placement, a tie)
  // until photonic products pay for their conversions.
  CHECK(r.tables[0].ranges.size() == 1);
  CHECK(r.tables[0].ranges[0].system == 1);
  CHECK(boundaries >= 1);
  MESSAGE("energy boundary at " << (r.tables[1].ranges.size() > 1 ? r.tables[1].ranges[1].from : 0));
}

TEST_CASE("per-op thresholds on CPU/PHU: photonic not cheaper at T-1, cheaper at T, as a full scan finds") {
  const sweep::CrossoverScenario s = gpt2_scenario({"cpu", "cpu_phu"}, {"time"}, 1, 512);
  const hw::System sys = hw::System::load(system_path("cpu_phu"), hw::profile_named("lightcode"));
  const opt::GraphAtLength graphs = sweep::scenario_graphs(s);
  const auto wins_at = [&](int64_t l, opt::Objective o) {
    const ir::Graph g = graphs(l);
    const opt::StackedGraph stacks(g, sys);
    std::set<ir::NodeId> out;
    for (const opt::OpComparison& c : opt::compare_photonic(stacks, o)) {
      if (c.photonic_wins()) out.insert(c.node);
    }
    return out;
  };
  for (opt::Objective o : {opt::Objective::time, opt::Objective::energy}) {
    CAPTURE(opt::objective_name(o));
    const opt::ThresholdReport t = opt::find_thresholds(graphs, sys, o, 1, 512);
    CHECK(t.lengths_probed < 120);
    size_t ops = 0;
    for (const opt::ThresholdGroup& g : t.groups) {
      ops += g.ops.size();
      REQUIRE(g.threshold);
      const std::set<ir::NodeId> at = wins_at(*g.threshold, o);
      const std::set<ir::NodeId> before = g.from_start ? std::set<ir::NodeId>{} : wins_at(*g.threshold - 1, o);
      for (ir::NodeId n : g.nodes) {
        CAPTURE(n);
        CHECK(at.count(n) == 1);
        CHECK(before.count(n) == 0);
      }
      if (!g.from_start) CHECK(g.photonic_at < g.electronic_at);
      if (!g.from_start) CHECK(g.photonic_before >= g.electronic_before);
    }
    CHECK(ops == 73);  // every dense and batch matmul of GPT-2
  }
  // Energy thresholds against the original's method, a scan of every length, on a short range.
  const opt::ThresholdReport t = opt::find_thresholds(graphs, sys, opt::Objective::energy, 1, 100);
  std::map<ir::NodeId, int64_t> scanned;
  for (int64_t l = 1; l <= 100; ++l) {
    for (ir::NodeId n : wins_at(l, opt::Objective::energy)) scanned.emplace(n, l);
  }
  for (const opt::ThresholdGroup& g : t.groups) {
    for (ir::NodeId n : g.nodes) {
      CAPTURE(n);
      if (g.threshold) {
        CHECK(scanned.at(n) == *g.threshold);
      } else {
        CHECK(scanned.count(n) == 0);
      }
    }
  }
}

TEST_CASE("crossover scenarios: the shipped one loads, and bad input gives a clear error naming file and key") {
  const sweep::CrossoverScenario s = sweep::load_crossover(test::source_dir() + "/scenarios/crossover.yaml");
  CHECK(s.systems.size() == 3);
  CHECK(s.objectives == std::vector<std::string>{"time", "energy"});
  CHECK(s.start == 1);
  CHECK(s.stop == 4096);
  CHECK(s.threshold_system == system_path("cpu_phu"));
  CHECK(error_of(kGood).empty());

  std::string e = error_of("model: gpt2\nsystems: [../configs/systems/lightcode/cpu.yaml]\nobjectives: [time]\n"
                           "lengths: {start: 1, stop: 64}\n");
  CHECK(e.find("bad.yaml:2") != std::string::npos);
  CHECK(e.find("systems") != std::string::npos);
  CHECK(e.find("at least two systems") != std::string::npos);

  e = error_of("model: gpt2\nsystems: [../configs/systems/lightcode/cpu.yaml, ../configs/systems/lightcode/gpu.yaml]\n"
               "objectives: [time, latency]\nlengths: {start: 1, stop: 64}\n");
  CHECK(e.find("bad.yaml:3") != std::string::npos);
  CHECK(e.find("latency") != std::string::npos);
  CHECK(e.find("time, energy, edp") != std::string::npos);

  e = error_of("model: gpt2\nsystems: [../configs/systems/lightcode/cpu.yaml, ../configs/systems/lightcode/gpu.yaml]\n"
               "objectives: [time]\nlengths: {start: 100, stop: 10}\n");
  CHECK(e.find("bad.yaml:4") != std::string::npos);
  CHECK(e.find("lengths") != std::string::npos);
  CHECK(e.find("inverted") != std::string::npos);

  e = error_of("model: gpt2\nsystems: [../configs/systems/lightcode/cpu.yaml, ../configs/systems/lightcode/gpu.yaml]\n"
               "objectives: [time]\nlengths: {start: 0, stop: 10}\n");
  CHECK(e.find("lengths.start") != std::string::npos);
  CHECK(e.find("must be an integer from 1 to") != std::string::npos);

  e = error_of("model: gpt2\nsystems: [../configs/systems/lightcode/cpu.yaml, ../configs/systems/lightcode/gpu.yaml]\n"
               "objectives: []\nlengths: {start: 1, stop: 10}\n");
  CHECK(e.find("objectives") != std::string::npos);

  e = error_of(std::string(kGood) + "treshold: {system: ../configs/systems/lightcode/cpu_phu.yaml}\n");
  CHECK(e.find("bad.yaml:7") != std::string::npos);
  CHECK(e.find("treshold") != std::string::npos);

  e = error_of(std::string(kGood) + "thresholds: {system: ../configs/systems/lightcode/nope.yaml}\n");
  CHECK(e.find("thresholds.system") != std::string::npos);
  CHECK(e.find("does not exist") != std::string::npos);

  CHECK_THROWS_AS(sweep::check_range(5, 4), Error);
  CHECK_THROWS_AS(sweep::check_range(0, 4), Error);
  CHECK_NOTHROW(sweep::check_range(4, 4));
}

TEST_CASE("a crossover scenario key its model does not read names the file, line and key") {
  // traced_length sizes an imported TVM graph; a built-in model would silently ignore it.
  const std::string e = error_of(std::string(kGood) + "traced_length: 5\n");
  CHECK(e.find("bad.yaml:7:") == 0);
  CHECK(e.find("key 'traced_length' is set but not read by this crossover scenario") != std::string::npos);
  const std::string tvm = "model: ../tests/fuzz/corpus/tvm_json/attention_prefill5.json\ntraced_length: 5\n"
                          "systems: [../configs/systems/cpu.yaml, ../configs/systems/gpu.yaml]\n"
                          "objectives: [time]\nlengths: {start: 1, stop: 64}\n";
  CHECK(error_of(tvm).empty());
  // A crossover compares one stage's graphs: generation is not one of them.
  CHECK(error_of(std::string(kGood) + "stage: generate\n").find("expected one of prefill, decode") !=
        std::string::npos);
}

TEST_CASE("the crossover table: every default parses, every key has a doc") {
  CHECK(check_defaults(sweep::crossover_table()).empty());
}

TEST_CASE("the dispatch table reads back: routes, curves the search evaluated, and strict errors") {
  const sweep::CrossoverScenario s = gpt2_scenario({"cpu", "cpu_phu"}, {"time", "energy"}, 1, 160);
  const sweep::CrossoverResult r = sweep::run_crossover(s);
  for (const std::string& text : {sweep::dispatch_yaml(r), sweep::dispatch_json(r)}) {
    const serve::LoadedDispatchTable t = serve::parse_dispatch_table(text, "table");
    REQUIRE(t.objectives.size() == 2);
    CHECK(t.systems == std::vector<std::string>{r.systems[0].name, r.systems[1].name});
    for (size_t o = 0; o < 2; ++o) {
      const sweep::DispatchTable& written = r.tables[o];
      const serve::DispatchObjective& read = t.objectives[o];
      CHECK(read.objective == written.objective);
      REQUIRE(read.rules.size() == written.ranges.size());
      for (const sweep::DispatchRange& d : written.ranges) {
        for (int64_t l : {d.from, d.to}) CHECK(t.route(written.objective, l).system == r.systems[static_cast<size_t>(d.system)].name);
      }
      // The curves are exactly what the search evaluated: every probed length, every system.
      CHECK(read.curve_lengths == written.curve_lengths);
      CHECK(read.curve_lengths.size() == written.lengths_probed);
      for (size_t k = 0; k < 2; ++k) {
        for (size_t i = 0; i < read.curve_lengths.size(); ++i) {
          CHECK(read.curve_metrics[k][i] == doctest::Approx(written.curve_metrics[k][i]).epsilon(1e-11));
        }
      }
    }
  }
  const serve::LoadedDispatchTable t = serve::parse_dispatch_table(sweep::dispatch_yaml(r), "table");
  CHECK_THROWS_WITH_AS(t.route("time", 161), "dispatch table 'test': length 161 is outside its range 1..160", Error);
  CHECK_THROWS_WITH_AS(t.route("edp", 5), "dispatch table 'test' has no 'edp' objective", Error);

  // A gap between ranges, an unknown system and an unknown key are placed errors.
  std::string gap = sweep::dispatch_yaml(r);
  const size_t at = gap.find("from: 1, to:");
  REQUIRE(at != std::string::npos);
  gap.replace(at, 7, "from: 2");
  CHECK_THROWS_WITH_AS(serve::parse_dispatch_table(gap, "gap.yaml"), doctest::Contains("ranges must be contiguous: expected from 1"), Error);
  CHECK_THROWS_WITH_AS(serve::parse_dispatch_table("name: x\nmodel: m\nstage: prefill\nprofile: default\nlengths: {start: 1, stop: 2}\n"
                                                   "systems: [{name: A, file: a}]\ndispatch: {time: {ranges: [{from: 1, to: 2, system: B}]}}\n",
                                                   "u.yaml"),
                       doctest::Contains("system 'B' is not listed under `systems`"), Error);
  CHECK_THROWS_WITH_AS(serve::parse_dispatch_table("name: x\nbogus: 1\n", "k.yaml"), doctest::Contains("unknown key 'bogus'"), Error);
}

TEST_CASE("a crossover's `precision:` reaches every point it runs, and is bounded at its key") {
  const std::string text =
      "name: x\nmodel: gpt2\nprecision: 8\n"
      "systems: [../configs/systems/h100_sxm.yaml, ../configs/systems/gpu_dota_b.yaml]\n"
      "objectives: [energy]\nlengths: {start: 16, stop: 18}\n";
  const sweep::CrossoverScenario s = sweep::parse_crossover(text, "p.yaml", test::source_dir() + "/scenarios");
  CHECK(s.precision == 8);
  // DOTA-B computes at 4 bits: at 8 it is no candidate, so both systems place alike (GPU only).
  const sweep::CrossoverResult r = sweep::run_crossover(s);
  REQUIRE(r.tables.size() == 1);
  for (const auto& metrics : r.tables[0].curve_metrics) REQUIRE(!metrics.empty());
  for (size_t i = 0; i < r.tables[0].curve_lengths.size(); ++i) {
    CAPTURE(r.tables[0].curve_lengths[i]);
    // The DOTA-B system adds only the PHU's static power to the GPU's energy.
    CHECK(r.tables[0].curve_metrics[1][i] >= r.tables[0].curve_metrics[0][i]);
  }
  CHECK(error_of(std::string(kGood) + "precision: 0\n").find("precision") != std::string::npos);
  CHECK(error_of(std::string(kGood) + "precision: 8\n").find("key 'precision' is set but not read by this crossover scenario (no system listed has a system with a unit "
                  "that models precision") !=
        std::string::npos);
}
