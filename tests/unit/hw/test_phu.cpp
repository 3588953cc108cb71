// Default-profile photonic unit: the original's ceil structure for optical compute, DAC and
// ADC rates that can bound it, and energy that adds up exactly.
#include <doctest/doctest.h>

#include "hw_models/phu/phu_model.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;
using namespace lightcode::hw;
using ir::Shape;
using lightcode::test::op;

namespace {

PhuSpec spec(int cores, int multiplex) {
  PhuSpec s;
  s.cores = cores;
  s.multiplex = multiplex;
  s.clock_hz = 10e9;
  s.energy_per_mac_j = 0.04e-12;
  s.dac.energy_per_sample_j = 3.18e-12;
  s.adc.energy_per_sample_j = 1.6e-12;
  return s;
}

Cost cost(const PhuSpec& s, const ir::Node& n) {
  const auto phu = make_phu_model(s);
  REQUIRE(phu->supports(n));
  return phu->estimate(n, kPhuTaskParallel);
}

// dense [64, 512] x [256, 512] -> [64, 256]: n_out = 16384 dot products of K = 512.
const ir::Node kDense = op("dense", {{64, 512}, {256, 512}}, {64, 256});
// The same product 16 times over: a batch matmul, one 2-D product per batch element.
const ir::Node kBatch = op("matmul", {{16, 64, 512}, {16, 256, 512}}, {16, 64, 256});
constexpr double kCycle = 1.0 / 10e9;

}  // namespace

TEST_CASE("only matrix products run on the PHU, as task_parallel, one unit whose cores share each product") {
  const auto phu = make_phu_model(spec(4, 20));
  CHECK(phu->unit_count() == 1);
  CHECK(phu->supports(kDense));
  CHECK(phu->supports(op("matmul", {{12, 5, 64}, {12, 5, 64}}, {12, 5, 5})));
  CHECK(phu->supports(op("matrix_matrix", {{5, 64}, {5, 64}}, {5, 5})));
  CHECK(phu->algorithm_name(kPhuTaskParallel) == "task_parallel");
  CHECK_FALSE(phu->supports(op("add", {{8}, {8}}, {8})));
  CHECK_FALSE(phu->supports(op("softmax", {{8}}, {8})));
}

TEST_CASE("compute: ceil(M N / (cores x multiplex)) x K cycles per product, the products of a batch in turn") {
  const Cost base = cost(spec(1, 1), kDense);
  CHECK(base.bound == Bound::compute);
  CHECK(base.time == Time::from_seconds(16384.0 * 512 * kCycle));
  for (int m : {2, 4, 16, 64}) {
    CAPTURE(m);
    CHECK(cost(spec(1, m), kDense).time == Time::from_seconds(16384.0 / m * 512 * kCycle));
  }
  // The ceiling: 16384 / 20 = 819.2 -> 820 passes.
  CHECK(cost(spec(1, 20), kDense).time == Time::from_seconds(820.0 * 512 * kCycle));
  // The cores share one 2-D product: doubling them halves a large product's time, for one
  // product and for each of a batch's 16, until a product's dot products fit in one pass.
  for (int c : {1, 2, 4, 8, 16, 64}) {
    CAPTURE(c);
    CHECK(cost(spec(c, 16), kDense).time == Time::from_seconds((16384.0 / 16 / c) * 512 * kCycle));
    CHECK(cost(spec(c, 16), kBatch).time == Time::from_seconds(16.0 * (16384.0 / 16 / c) * 512 * kCycle));
  }
  CHECK(cost(spec(2048, 16), kDense).time == Time::from_seconds(512 * kCycle));  // one pass: K cycles
  CHECK(cost(spec(4096, 16), kDense).time == cost(spec(2048, 16), kDense).time);  // the bound: K
  // Passes are whole: 16384 / (3 x 16) = 341.3 -> 342.
  CHECK(cost(spec(3, 16), kDense).time == Time::from_seconds(342.0 * 512 * kCycle));
}

TEST_CASE("DAC and ADC rates bound the time once compute outruns them") {
  const int64_t in_samples = 64 * 512 + 256 * 512;  // every input element once
  const int64_t out_samples = 64 * 256;             // every output element once
  PhuSpec s = spec(1, 1);
  s.dac.sample_rate = 10e9;
  s.adc.sample_rate = 10e9;
  s.dac.latency_s = 1e-9;
  s.adc.latency_s = 2e-9;
  // Compute-bound at low multiplex: 16384 * 512 cycles against 163840 DAC samples.
  Cost c = cost(s, kDense);
  CHECK(c.bound == Bound::compute);
  CHECK(c.time == Time::from_seconds(16384.0 * 512 * kCycle + 3e-9));
  // Scaling multiplex and cores helps until the DAC (163840 samples per core-converter) binds.
  double last = c.time.seconds();
  for (int m : {4, 16, 64, 256, 1024, 4096}) {
    s.multiplex = m;
    c = cost(s, kDense);
    CHECK(c.time.seconds() <= last);
    last = c.time.seconds();
  }
  CHECK(c.bound == Bound::conversion);
  CHECK(c.time == Time::from_seconds(static_cast<double>(in_samples) / 10e9 + 3e-9));
  // Each core has its own converters: a batch over 4 cores converts 4 products at a time.
  s.cores = 4;
  c = cost(s, kBatch);
  CHECK(c.bound == Bound::conversion);
  CHECK(c.time == Time::from_seconds(4.0 * static_cast<double>(in_samples) / 10e9 + 3e-9));
  s.cores = 1;
  CHECK(cost(s, kBatch).time == Time::from_seconds(16.0 * static_cast<double>(in_samples) / 10e9 + 3e-9));
  // A slow ADC binds on the output side: 16384 samples at 0.25 GS/s x 2 converters.
  s.adc.sample_rate = 0.25e9;
  s.adc.count = 2;
  s.cores = 1;
  s.multiplex = 4096;
  c = cost(s, kDense);
  CHECK(c.bound == Bound::conversion);
  CHECK(c.time == Time::from_seconds(static_cast<double>(out_samples) / 0.5e9 + 3e-9));
}

TEST_CASE("energy = MACs x MAC energy + DAC samples + ADC samples, exactly") {
  const double macs = 64.0 * 256 * 512;
  const double in_samples = 64.0 * 512 + 256.0 * 512;
  const double out_samples = 64.0 * 256;
  const double expected_pj = macs * 0.04 + in_samples * 3.18 + out_samples * 1.6;
  for (int m : {1, 20}) {
    for (int c : {1, 3}) {
      CHECK(cost(spec(c, m), kDense).energy.picojoules() ==
            doctest::Approx(expected_pj).epsilon(1e-12));
    }
  }
  // A batch matmul converts every element of both operands and of the output.
  const ir::Node bmm = op("matmul", {{12, 5, 64}, {12, 7, 64}}, {12, 5, 7});
  const double bmm_pj =
      12.0 * 5 * 7 * 64 * 0.04 + (12.0 * 5 * 64 + 12.0 * 7 * 64) * 3.18 + 12.0 * 5 * 7 * 1.6;
  CHECK(cost(spec(1, 20), bmm).energy.picojoules() == doctest::Approx(bmm_pj).epsilon(1e-12));
}
