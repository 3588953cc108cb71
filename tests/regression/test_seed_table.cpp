// The seed table (LightCode overview, "Raw sim results"): GPT-2 prefill, time objective,
// `lightcode` profile, on the TVM graph and on the built-in gpt2. Makespans to the table's
// 5 decimals, energies within 1e-5 relative (they match to 0.1 pJ), node and photonic counts
// exactly. GPU rows have no target (the original's GPU code is not public): they are checked
// to come from the GPU model and printed beside the seed's figures.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/sweep/run_point.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

struct Row {
  const char* system;
  int64_t seq;
  double makespan_s;
  int64_t nodes;
  double energy_pj;
  int64_t photonic;
  int64_t possible;
};

constexpr Row kSeed[] = {
    {"cpu", 1400, 30.66707, 1108, 161644179672.6, 0, 0},
    {"cpu", 150, 2.98404, 1108, 50184590920.6, 0, 0},
    {"cpu_phu", 1400, 1.93061, 1518, 134854955336.6, 73, 73},
    {"cpu_phu", 150, 0.13016, 1518, 46733526484.6, 73, 73},
};
constexpr Row kSeedGpu[] = {
    {"gpu", 1400, 1.46015, 1108, 161867029910.0, 0, 0},
    {"gpu", 150, 0.06096, 1108, 50208382160.0, 0, 0},
    {"gpu_phu", 1400, 1.46015, 1108, 161867029910.0, 0, 73},
    {"gpu_phu", 150, 0.06096, 1108, 50208382160.0, 0, 73},
};

sweep::PointSpec point(const std::string& model, const Row& row) {
  sweep::PointSpec p;
  p.id = "p0";
  p.model = model;
  p.stage = "prefill";
  p.sequence_length = row.seq;
  p.system = test::source_dir() + "/configs/systems/" + row.system + ".yaml";
  p.objective = "time";
  p.profile = "lightcode";
  p.fidelity = "analytical";  // the published figures are the original's list scheduler's
  return p;
}

double round5(double s) { return std::round(s * 1e5) / 1e5; }

void check_row(const std::string& model, const Row& row) {
  CAPTURE(model);
  CAPTURE(row.system);
  CAPTURE(row.seq);
  const auto run = sweep::run_point(point(model, row));
  const auto& s = run.result.summary;
  CHECK(round5(s.makespan_s) == doctest::Approx(row.makespan_s).epsilon(1e-12));
  CHECK(s.nodes == row.nodes);
  CHECK(s.energy_pj == doctest::Approx(row.energy_pj).epsilon(1e-5));
  CHECK(s.photonic_selected == row.photonic);
  CHECK(s.photonic_possible == row.possible);
}

}  // namespace

TEST_CASE("seed table on the TVM GPT-2 prefill graph (lightcode profile)") {
  const std::string graph = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!test::have_external(graph)) return;
  for (const Row& row : kSeed) check_row(graph, row);
}

TEST_CASE("seed table on the built-in gpt2 (lightcode profile)") {
  for (const Row& row : kSeed) check_row("gpt2", row);
}

TEST_CASE("GPU rows come from the GPU model, listed beside the seed's figures") {
  for (const Row& row : kSeedGpu) {
    const auto run = sweep::run_point(point("gpt2", row));
    const auto& s = run.result.summary;
    MESSAGE(row.system << " @" << row.seq << ": makespan " << s.makespan_s << " s (seed " << row.makespan_s
                       << "), energy " << s.energy_pj << " pJ (seed " << row.energy_pj << "), photonic "
                       << s.photonic_selected << "/" << s.photonic_possible);
    CHECK(s.photonic_possible == row.possible);
    bool on_gpu = false;
    for (const auto& t : run.result.tasks) on_gpu = on_gpu || t.hardware == "gpu";
    CHECK(on_gpu);
    CHECK(s.makespan_s > 0.0);
  }
}
