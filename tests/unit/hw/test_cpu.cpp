// Default-profile CPU model: vector lanes or the core's share of memory bandwidth, matrix
// products at the vector FLOP rate, and calibrated fits that override both.
#include <doctest/doctest.h>

#include "hw_models/cpu/cpu_model.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;
using namespace lightcode::hw;
using ir::Shape;
using lightcode::test::op;

namespace {

CpuSpec four_cores() {
  CpuSpec s;
  s.cores = 4;
  s.clock_hz = 2e9;
  s.vector_flops_per_cycle = 32;  // 16 lanes of non-FMA ops per cycle
  s.memory_bandwidth = 40e9;      // 10 GB/s per core
  s.gemm_efficiency = 0.5;
  s.energy_per_cycle_j = 1e-12;
  s.energy_per_mac_j = 0.1e-12;
  return s;
}

Cost cost(const HardwareModel& m, const ir::Node& n) {
  REQUIRE(m.supports(n));
  return m.estimate(n, m.algorithms(n).ids[0]);
}

}  // namespace

TEST_CASE("each core is a unit, and every op kind but memory and SRAM bookkeeping runs") {
  const auto cpu = make_cpu_model(four_cores());
  CHECK(cpu->unit_count() == 4);
  for (const char* kind : {"add", "dense", "matmul", "softmax", "tanh", "mean", "nop", "take",
                           "transpose", "split", "where", "broadcast_to"}) {
    CAPTURE(kind);
    CHECK(cpu->supports(op(kind, {{8, 8}}, {8, 8})));
  }
  CHECK_FALSE(cpu->supports(op("memory", {}, {8})));
  CHECK_FALSE(cpu->supports(op("split_sram", {{8}}, {8})));
  CHECK_FALSE(cpu->supports(op("merge_sram", {{8}}, {8})));
  CHECK(cpu->algorithm_name(kCpuVector) == "vector");
}

TEST_CASE("a large add is bound by the core's share of memory bandwidth") {
  const auto cpu = make_cpu_model(four_cores());
  const Shape s{1 << 20};
  const Cost c = cost(*cpu, op("add", {s, s}, s));
  CHECK(c.bound == Bound::memory);
  CHECK(c.bytes_read == 8 << 20);
  CHECK(c.bytes_written == 4 << 20);
  const double seconds = 12.0 * (1 << 20) / 10e9;
  CHECK(c.time == Time::from_seconds(seconds));
  CHECK(c.energy.picojoules() == doctest::Approx(seconds * 2e9 * 1.0));  // busy cycles x 1 pJ
}

TEST_CASE("transcendentals are compute-bound on the vector lanes") {
  CpuSpec s = four_cores();
  s.memory_bandwidth = 4e12;  // take memory out of the picture
  const auto cpu = make_cpu_model(s);
  const Shape x{1 << 20};
  const Cost tanh = cost(*cpu, op("tanh", {x}, x));
  const Cost add = cost(*cpu, op("add", {x, x}, x));
  CHECK(tanh.bound == Bound::compute);
  CHECK(tanh.time == Time::from_seconds(12.0 * (1 << 20) / (16 * 2e9)));
  CHECK(add.time == Time::from_seconds(1.0 * (1 << 20) / (16 * 2e9)));
}

TEST_CASE("a dense product runs at the vector FLOP rate x efficiency") {
  const auto cpu = make_cpu_model(four_cores());
  const ir::Node d = op("dense", {{512, 512}, {512, 512}}, {512, 512});
  const Cost c = cost(*cpu, d);
  const double macs = 512.0 * 512 * 512;
  CHECK(c.bound == Bound::compute);
  CHECK(c.time == Time::from_seconds(2 * macs / (32 * 2e9 * 0.5)));
  CHECK(c.energy.picojoules() == doctest::Approx(macs * 0.1));
  // A skinny product reading a big weight is memory-bound instead.
  const ir::Node gemv = op("dense", {{1, 4096}, {4096, 4096}}, {1, 4096});
  CHECK(cost(*cpu, gemv).bound == Bound::memory);
}

TEST_CASE("every op takes at least one cycle, and reshapes move no bytes") {
  const auto cpu = make_cpu_model(four_cores());
  const Cost c = cost(*cpu, op("nop", {{1, 5, 768}}, {5, 768}));
  CHECK(c.time == Time::from_seconds(1 / 2e9));
  CHECK(c.bound == Bound::latency);
  CHECK(c.bytes_read == 0);
}

TEST_CASE("a calibrated fit overrides the analytic model for its kind") {
  CpuSpec s = four_cores();
  LinearFit dense;
  dense.per_work_s = 1e-10;
  dense.offset_s = 1e-6;
  dense.work = LinearFit::Work::macs;
  s.fits["dense"] = dense;
  LinearFit add;
  add.per_work_s = 2e-11;
  add.offset_s = 3e-7;
  s.fits["add"] = add;
  LinearFit other;
  other.offset_s = 5e-6;
  s.fits["broadcast_to"] = other;
  const auto cpu = make_cpu_model(s);

  const ir::Node d = op("dense", {{64, 256}, {128, 256}}, {64, 128});
  REQUIRE(cpu->algorithms(d).count == 1);
  CHECK(cpu->algorithms(d).ids[0] == kCpuCalibrated);
  CHECK(cpu->algorithm_name(kCpuCalibrated) == "calibrated");
  const double macs = 64.0 * 128 * 256;
  Cost c = cost(*cpu, d);
  CHECK(c.time == Time::from_seconds(1e-10 * macs + 1e-6));
  CHECK(c.energy.picojoules() == doctest::Approx(macs * 0.1));
  // The analytic model is still there when asked for by id.
  CHECK(cpu->estimate(d, kCpuVector).time == Time::from_seconds(2 * macs / (32e9)));

  const Shape x{1000};
  c = cost(*cpu, op("add", {x, x}, x));
  CHECK(c.time == Time::from_seconds(2e-11 * 1000 + 3e-7));
  CHECK(c.energy.picojoules() == doctest::Approx((2e-11 * 1000 + 3e-7) * 2e9));
  CHECK(cost(*cpu, op("broadcast_to", {x}, {4, 1000})).time == Time::from_seconds(5e-6));
  // Kinds without a fit keep the analytic model.
  CHECK(cpu->algorithms(op("multiply", {x, x}, x)).ids[0] == kCpuVector);
}

TEST_CASE("a beyond-cache regime applies when the largest input exceeds the cache") {
  CpuSpec s = four_cores();
  s.cache_bytes = 1 << 20;
  LinearFit f;
  f.per_work_s = 1e-10;
  f.work = LinearFit::Work::macs;
  f.beyond_cache_per_work_s = 5e-10;
  f.beyond_cache_offset_s = -1e-3;
  f.beyond_cache_points = 12;
  s.fits["dense"] = f;
  const auto cpu = make_cpu_model(s);
  const ir::Node small = op("dense", {{4, 256}, {256, 256}}, {4, 256});    // 256 KiB weight
  const ir::Node big = op("dense", {{4, 1024}, {1024, 1024}}, {4, 1024});  // 4 MiB weight
  CHECK(cost(*cpu, small).time == Time::from_seconds(1e-10 * 4 * 256 * 256));
  CHECK(cost(*cpu, big).time == Time::from_seconds(5e-10 * 4 * 1024 * 1024 - 1e-3));
  // A negative offset never makes a time below one cycle.
  const ir::Node tiny = op("dense", {{1, 512}, {1024, 512}}, {1, 1024});  // 2 MiB weight
  CHECK(cost(*cpu, tiny).time == Time::from_seconds(1 / 2e9));
}
