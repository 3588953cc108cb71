// Points over several devices (tensor_parallel, pipeline_parallel; sim/stages/graph/
// graph_stage.hpp), at analytical fidelity: one device is today's point to the picosecond, the
// collectives run on the system's interconnect, the devices' memory and count are checked, the
// group's energy counts every device, and pipeline stages run one after another.
#include <doctest/doctest.h>

#include <string>

#include "sim/core/error.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/stages/stage.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

sweep::PointSpec parallel_point(const std::string& model, Stage stage, int64_t length, const std::string& system,
                                int64_t tp, int64_t pp = 1) {
  sweep::PointSpec p = test::analytical_point(model, length, system);
  p.stage = stage;
  p.tensor_parallel = tp;
  p.pipeline_parallel = pp;
  return p;
}

std::string point_error(const sweep::PointSpec& p) {
  return test::error_of([&p] { sweep::run_point(p); });
}

}  // namespace

TEST_CASE("parallel points: one device on a DGX is the single-GPU system's point to the picosecond") {
  for (Stage stage : {Stage::prefill, Stage::decode}) {
    const sweep::PointRun one = sweep::run_point(parallel_point("llama-2-7b", stage, 64, "h100_sxm.yaml", 1));
    const sweep::PointRun dgx = sweep::run_point(parallel_point("llama-2-7b", stage, 64, "dgx_h100.yaml", 1));
    CHECK(dgx.result.summary.makespan == one.result.summary.makespan);
    CHECK(dgx.result.summary.energy_pj == one.result.summary.energy_pj);
    CHECK(dgx.result.summary.group_energy_pj == dgx.result.summary.energy_pj);
    CHECK(dgx.result.summary.communication_s == 0.0);
  }
}

TEST_CASE("parallel points: collectives run on the interconnect and the group's energy counts every device") {
  const sweep::PointRun run =
      sweep::run_point(parallel_point("llama-2-70b", Stage::prefill, 128, "dgx_h100.yaml", 8));
  const results::PointSummary& s = run.result.summary;
  CHECK(s.tensor_parallel == 8);
  // 80 layers x 2 all_reduce, one after the embedding, one all_gather of the logits.
  int collectives = 0;
  Time busy;
  for (const results::TaskRecord& t : run.result.tasks) {
    const bool collective = t.op == "all_reduce" || t.op == "all_gather";
    CHECK((t.hardware == "nvlink") == collective);
    if (!collective) continue;
    ++collectives;
    busy = busy.plus(t.end - t.start, "test");
  }
  CHECK(collectives == 162);
  CHECK(s.communication_s == busy.seconds());
  CHECK(s.communication_s > 0.0);
  CHECK(s.communication_s < s.makespan_s);
  // The GPU's and its HBM's rows (and what moves on them) for all eight; the host's and the
  // fabric's once.
  double expected = 0.0;
  for (const results::EnergyRow& r : run.result.energy) {
    const bool device = r.hardware.rfind("gpu", 0) == 0 || r.hardware.rfind("hbm", 0) == 0 ||
                        r.hardware.find("->gpu") != std::string::npos || r.hardware.find("->hbm") != std::string::npos;
    expected += r.energy_pj * (device ? 8.0 : 1.0);
  }
  CHECK(s.group_energy_pj == doctest::Approx(expected).epsilon(1e-12));
  CHECK(s.group_energy_pj > 7.0 * s.energy_pj);
}

TEST_CASE("parallel points: Llama-2-70B fits one 80 GB device per rank from two ranks") {
  const std::string one = point_error(parallel_point("llama-2-70b", Stage::decode, 16, "dgx_h100.yaml", 1));
  CHECK(one.find("does not fit") != std::string::npos);
  CHECK(point_error(parallel_point("llama-2-70b", Stage::decode, 16, "dgx_h100.yaml", 2)).empty());
  CHECK(point_error(parallel_point("llama-2-70b", Stage::decode, 16, "dgx_a100.yaml", 2)).empty());
}

TEST_CASE("parallel points: a point may use only the devices the system has") {
  const std::string many = point_error(parallel_point("llama-2-7b", Stage::decode, 16, "dgx_h100.yaml", 8, 2));
  CHECK(many.find("needs 16 devices; system 'DGX-H100' has 8") != std::string::npos);
  const std::string single = point_error(parallel_point("llama-2-7b", Stage::decode, 16, "h100_sxm.yaml", 2));
  CHECK(single.find("has 1") != std::string::npos);
  const std::string tvm = point_error(parallel_point(test::tvm_graph("gpt2_prefill_seq5_graph.json"),
                                                  Stage::prefill, 5, "dgx_h100.yaml", 2));
  CHECK(tvm.find("shard built-in models") != std::string::npos);
}

TEST_CASE("parallel points: pipeline stages run one after another, each sending to the next") {
  const sweep::PointSpec p = parallel_point("llama-2-7b", Stage::decode, 100, "dgx_h100.yaml", 2, 2);
  const sweep::PointRun run = sweep::run_point(p);
  Time stages;
  for (int64_t s = 0; s < 2; ++s) {
    sweep::PointSpec stage = p;
    stage.pipeline_stage = s;
    stages = stages.plus(sweep::plan_point(stage).run.schedule.makespan, "test");
  }
  CHECK(run.result.summary.makespan == stages);
  int sends = 0;
  for (const results::TaskRecord& t : run.result.tasks) {
    if (t.op == "send_recv") {
      ++sends;
      CHECK(t.hardware == "nvlink");
      CHECK(t.step == 0);  // stage 0 sends; the last stage has nothing to send
    }
  }
  CHECK(sends == 1);
  CHECK(run.result.summary.pipeline_parallel == 2);
}

TEST_CASE("parallel points: more ranks make a long Llama-2-70B prompt faster") {
  double last = 0.0;
  for (int64_t tp : {2, 4, 8}) {
    CAPTURE(tp);
    const double t =
        sweep::run_point(parallel_point("llama-2-70b", Stage::prefill, 2048, "dgx_h100.yaml", tp))
            .result.summary.makespan_s;
    if (last > 0.0) CHECK(t < last);
    last = t;
  }
}
