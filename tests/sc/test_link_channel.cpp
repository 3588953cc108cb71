// Link channels against the transfer model. Both time a link with link_timing(), so one
// transfer on an idle system at event fidelity, contention on, takes the model's time to the
// picosecond. One simulation per test case (SystemC elaborates once per process).
#include <doctest/doctest.h>

#include <string>

#include "hw_models/link/link_timing.hpp"
#include "hw_models/system.hpp"
#include "sim/engine/engine.hpp"
#include "sim/sched/analytical.hpp"
#include "tests/support/engine_tasks.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;
using lightcode::test::independent;
using lightcode::test::list_policy;
using lightcode::test::op;
using lightcode::test::system_of;

namespace {

constexpr const char* kUnits =
    "  cpu: {from: ../hardware/cpu_seed.yaml}\n  phu: {from: ../hardware/phu_lightcode.yaml}\n";

// 0.1667 ns is 166.7 ps and 76 B at 307 GB/s is 247.56 ps: rounding latency and occupancy
// apart would give 415 ps where the model's latency + bytes / bandwidth rounds to 414 ps.
constexpr const char* kLatency = "0.1667 ns";
constexpr const char* kBandwidth = "307 GB/s";
const ir::TensorType kTensor{ir::Shape{19}, ir::DType::float32};  // 76 B

std::string link(const std::string& src, const std::string& dst) {
  return "  - {src: " + src + ", dst: " + dst + ", latency: " + kLatency + ", bandwidth: " + kBandwidth +
         ", energy_per_bit: 0.4 pJ/bit}\n";
}

// A CPU task whose output feeds one PHU product over the system's cpu -> phu route.
opt::TaskGraph producer_consumer(const hw::System& sys) {
  const hw::UnitType cpu = sys.find("cpu"), phu = sys.find("phu");
  opt::TaskGraph g = independent(sys, cpu, {op("add", {{19}, {19}}, {19})});
  opt::Task product = independent(sys, phu, {op("matrix_matrix", {{64, 512}, {256, 512}}, {64, 256})}).tasks[0];
  product.inputs = {opt::TaskInput{0, sys.transfers().estimate(kTensor, cpu, phu)}};
  g.tasks.push_back(product);
  return g;
}

hw::LinkSpec spec_of(const hw::System& sys, const std::string& src, const std::string& dst) {
  for (const hw::LinkSpec& l : sys.topology()->links()) {
    if (l.src == src && l.dst == dst) return l;
  }
  FAIL("no link " << src << " -> " << dst);
  return {};
}

}  // namespace

TEST_CASE("one transfer over an idle link, contention on: the transfer model's time to the picosecond") {
  const hw::System sys = system_of(kUnits, link("cpu", "phu"));
  const opt::TaskGraph g = producer_consumer(sys);
  const Time model = g.tasks[1].inputs[0].transfer.time;
  const hw::LinkTiming timing = hw::link_timing(spec_of(sys, "cpu", "phu"), kTensor.bytes());
  // The case tells the shared function from rounding latency and occupancy separately.
  REQUIRE(model == Time::ps(414));
  REQUIRE(Time::from_seconds(166.7e-12) + Time::from_seconds(76 / 307e9) == Time::ps(415));
  CHECK(timing.total() == model);

  const sched::Schedule analytical = sched::schedule(g, sched::unit_instances(sys), list_policy());
  engine::EngineOptions options;
  options.contention = true;
  const engine::EventResult event = engine::simulate(g, sys, options, list_policy());
  CHECK(event.schedule.slots[1].start - event.schedule.slots[0].end == model);
  CHECK(event.schedule.slots[1].start == analytical.slots[1].start);
  CHECK(event.schedule.makespan == analytical.makespan);
  REQUIRE(event.links.size() == 2);  // cpu->phu, phu->cpu
  CHECK(event.links[0].name == "cpu->phu");
  CHECK(event.links[0].busy == timing.occupancy);
  CHECK(event.links[0].queue_delay == Time::zero());
}

TEST_CASE("an idle two-hop route forwards hop by hop: each hop's link_timing, within 1 ps of the model") {
  const hw::System sys = system_of(kUnits, link("sram", "cpu") + link("sram", "phu"));
  const opt::TaskGraph g = producer_consumer(sys);
  const Time model = g.tasks[1].inputs[0].transfer.time;  // cpu -> sram -> phu as one chain
  const Time hops = hw::link_timing(spec_of(sys, "sram", "cpu"), kTensor.bytes()).total() +
                    hw::link_timing(spec_of(sys, "sram", "phu"), kTensor.bytes()).total();
  const engine::EventResult event = engine::simulate(g, sys, {}, list_policy());
  const Time took = event.schedule.slots[1].start - event.schedule.slots[0].end;
  CHECK(took == hops);
  CHECK((took - model).count_ps() >= -1);
  CHECK((took - model).count_ps() <= 1);
}
