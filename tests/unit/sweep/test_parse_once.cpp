// A point on a TVM graph parses its JSON once: the input check before the run and the point's
// own load share the parse (frontend/tvm/tvm_import.hpp), which was 61 % of a GPT-2 point's
// instructions when both parsed it.
#include <doctest/doctest.h>

#include "frontend/tvm/tvm_import.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/scenario.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

TEST_CASE("a TVM-graph point parses its graph once, from the input check to its results") {
  const std::string graph = test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!test::have_external(graph)) return;
  const sweep::Scenario s = sweep::load_scenario(
      test::source_dir() + "/scenarios/seed_table.yaml",
      {"model=" + graph, "sweep.system=[" + test::system_file("cpu_phu", "lightcode") + "]", "sweep.sequence_length=[150]"});
  REQUIRE(s.points.size() == 1);
  const uint64_t before = frontend::tvm_files_parsed();
  sweep::validate_point_inputs(s.points);
  const sweep::PointRun run = sweep::run_point(s.points.front());
  CHECK(frontend::tvm_files_parsed() - before == 1);
  CHECK(run.result.summary.status == results::Status::ok);
  CHECK(run.result.summary.nodes == 1518);  // the seed table's CPU/PHU row on the TVM graph
}
