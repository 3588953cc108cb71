// Points over several devices on the SystemC engine (one case per process): the collectives
// run on the interconnect unit's module, and with contention off the event timeline equals the
// analytical one to the picosecond, for a tensor-parallel group and for pipeline stages run one
// after another on one session.
#include <doctest/doctest.h>

#include "sim/stages/stage.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

void event_equals_analytical(sweep::PointSpec p) {
  p.fidelity = Fidelity::event;
  sweep::PointOptions o;
  o.engine.contention = false;
  const sweep::PointRun event = sweep::run_point(p, o);
  p.fidelity = Fidelity::analytical;
  const sweep::PointRun analytical = sweep::run_point(p);
  const results::PointSummary &e = event.result.summary, &a = analytical.result.summary;
  CHECK(e.fidelity == "event");
  CHECK(e.makespan == a.makespan);
  CHECK(e.communication_s == a.communication_s);
  CHECK(e.communication_s > 0.0);
  CHECK(e.energy_pj == doctest::Approx(a.energy_pj).epsilon(1e-12));
  CHECK(e.group_energy_pj == doctest::Approx(a.group_energy_pj).epsilon(1e-12));
  REQUIRE(event.result.tasks.size() == analytical.result.tasks.size());
  size_t differ = 0;
  for (size_t i = 0; i < event.result.tasks.size(); ++i) {
    const results::TaskRecord &x = event.result.tasks[i], &y = analytical.result.tasks[i];
    if (x.start != y.start || x.end != y.end || x.hardware != y.hardware) ++differ;
  }
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("tensor parallel at event fidelity without contention equals analytical, collectives included") {
  sweep::PointSpec p = test::analytical_point("llama-2-70b", 128, "dgx_h100.yaml");
  p.tensor_parallel = 8;
  event_equals_analytical(p);
}

TEST_CASE("pipeline stages at event fidelity without contention equal analytical, on one session") {
  sweep::PointSpec p = test::analytical_point("llama-2-13b", 64, "dgx_a100.yaml");
  p.stage = Stage::decode;
  p.tensor_parallel = 2;
  p.pipeline_parallel = 2;
  event_equals_analytical(p);
}
