// The `lightcode` profile against hand-computed values of reference/LIGHTCODE_MODEL.md.
// Expected picoseconds are the formula's seconds x 1e12, rounded once.
#include <doctest/doctest.h>

#include <map>
#include <utility>

#include "hw_models/system.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;
using ir::Shape;
using lightcode::test::op;

namespace {

// The shipped lightcode GPU/PHU system (configs/systems/lightcode/gpu_phu.yaml): the models
// read their figures from the *_lightcode.yaml specs, so these tests check those files too.
System seed_system(int phu_cores, int phu_multiplex) {
  const ConfigNode file =
      ConfigNode::load_file(test::source_dir() + "/configs/systems/lightcode/gpu_phu.yaml")
          .with_value("units.phu.cores", std::to_string(phu_cores), "test")
          .with_value("units.phu.multiplex", std::to_string(phu_multiplex), "test");
  return System::from_config(file, profile_named("lightcode"));
}

const System& seed() {
  static const System s = seed_system(1, 20);
  return s;
}

const HardwareModel& unit(const char* name) { return seed().model(seed().find(name)); }
const HardwareModel& seed_cpu() { return unit("cpu"); }

const HardwareModel& phu(int cores, int multiplex) {
  static std::map<std::pair<int, int>, System> systems;
  auto it = systems.find({cores, multiplex});
  if (it == systems.end()) it = systems.emplace(std::make_pair(cores, multiplex), seed_system(cores, multiplex)).first;
  return it->second.model(it->second.find("phu"));
}

Cost cost(const HardwareModel& m, const ir::Node& n) {
  REQUIRE(m.supports(n));
  return m.estimate(n, m.algorithms(n).ids[0]);
}

}  // namespace

TEST_CASE("CPU add: the linear fit in time, time x clock x 1 pJ in energy") {
  const Cost c = cost(seed_cpu(), op("add", {{1000}, {1000}}, {1000}));
  CHECK(c.time.count_ps() == 259142);  // 5.728e-11 * 1000 + 2.019e-7 s
  CHECK(c.energy.picojoules() == doctest::Approx(831.3282055905867));
}

TEST_CASE("CPU element-wise kinds: n_out, 2 n_out, 4 n_out, 6 n_out cycles, 1 pJ per cycle") {
  const HardwareModel& cpu = seed_cpu();
  const Shape s{1, 5, 768};  // 3840 elements
  for (const char* kind : {"subtract", "multiply", "divide", "sqrt", "rsqrt", "power", "transpose",
                           "negative", "cast", "equal"}) {
    CAPTURE(kind);
    const Cost c = cost(cpu, op(kind, {s}, s));
    CHECK(c.time.count_ps() == 1197007);  // 3840 / 3.208 GHz
    CHECK(c.energy.picojoules() == doctest::Approx(3840.0));
  }
  CHECK(cost(cpu, op("relu", {s}, s)).energy.picojoules() == doctest::Approx(2 * 3840.0));
  CHECK(cost(cpu, op("tanh", {s}, s)).energy.picojoules() == doctest::Approx(4 * 3840.0));
  CHECK(cost(cpu, op("sigmoid", {s}, s)).energy.picojoules() == doctest::Approx(4 * 3840.0));
  CHECK(cost(cpu, op("softmax", {s}, s)).time.count_ps() == 7182045);  // 23040 cycles
}

TEST_CASE("a kind the original's CPU does not list has no candidate (OPT's cumsum), as in the original") {
  CHECK_FALSE(seed_cpu().supports(op("cumsum", {{1, 5}}, {1, 5})));
  CHECK_FALSE(seed_cpu().supports(op("exp", {{1, 5}}, {1, 5})));
  CHECK(seed_cpu().supports(op("erf", {{1, 5}}, {1, 5})));
}

TEST_CASE("CPU one-cycle kinds") {
  const HardwareModel& cpu = seed_cpu();
  for (const char* kind : {"nop", "less", "take", "where", "erf", "slice", "concatenate"}) {
    CAPTURE(kind);
    const Cost c = cost(cpu, op(kind, {{1, 5, 768}}, {1, 5, 768}));
    CHECK(c.time.count_ps() == 312);  // 1 / 3.208 GHz = 311.7 ps
    CHECK(c.energy.picojoules() == doctest::Approx(1.0));
  }
}

TEST_CASE("CPU mean: (K + 1) x rows cycles, and the energy quirk (1 pJ per output element)") {
  const Cost c = cost(seed_cpu(), op("mean", {{1, 5, 768}}, {1, 5, 1}));
  CHECK(c.time.count_ps() == 1198566);  // 769 * 5 cycles
  // Not 3845 pJ (its cycles), nor the add fit's 648.5 pJ: the seed energies need n_out pJ.
  CHECK(c.energy.picojoules() == doctest::Approx(5.0));
}

TEST_CASE("TVM split is an SRAM op (1 cycle at 6 GHz, 0 pJ), not a CPU one, and broadcast_to and scatter_nd take n_out cycles") {
  const ir::Node split = op("split", {{1, 5, 2304}}, {1, 5, 768});
  CHECK_FALSE(seed_cpu().supports(split));
  const Cost c = cost(unit("sram"), split);
  CHECK(c.time.count_ps() == 167);
  CHECK(c.energy.picojoules() == 0.0);
  for (const char* kind : {"to", "nd"}) {
    CAPTURE(kind);
    const Cost k = cost(seed_cpu(), op(kind, {{1, 5, 768}}, {1, 5, 768}));
    CHECK(k.time.count_ps() == 1197007);  // 3840 cycles at 3.208 GHz
    CHECK(k.energy.picojoules() == doctest::Approx(3840.0));
  }
}

TEST_CASE("CPU dense: the small fit, and the > 50000 branch for the vocabulary projection") {
  const HardwareModel& cpu = seed_cpu();
  const Cost small = cost(cpu, op("dense", {{5, 768}, {2304, 768}}, {5, 2304}));
  CHECK(small.time.count_ps() == 606488194);  // 6.846e-11 * 8847360 + 8.258e-7 s
  CHECK(small.energy.picojoules() == doctest::Approx(884736.0));  // 0.1 pJ per MAC
  const Cost big = cost(cpu, op("dense", {{5, 768}, {50257, 768}}, {5, 50257}));
  CHECK(big.time.count_ps() == 61542610445);  // 3.555e-10 * 192986880 - 0.00706 s
  CHECK(big.energy.picojoules() == doctest::Approx(19298688.0));
  const Cost bmm = cost(cpu, op("matmul", {{12, 5, 64}, {12, 5, 64}}, {12, 5, 5}));
  CHECK(bmm.time.count_ps() == 2140201);  // 6.846e-11 * 19200 + 8.258e-7 s
}

TEST_CASE("PHU: ceil(ceil(n_out / multiplex) / cores) x K cycles at 9.7 GHz, 0.04 pJ per MAC") {
  const ir::Node dense = op("dense", {{5, 768}, {2304, 768}}, {5, 2304});
  const Cost one = cost(phu(1, 20), dense);
  CHECK(one.time.count_ps() == 45604948);  // 576 * 768 cycles
  CHECK(one.energy.picojoules() == doctest::Approx(8847360 * 0.04));
  CHECK(cost(phu(7, 20), dense).time.count_ps() == 6571546);  // ceil(576 / 7) = 83
  CHECK(cost(phu(1, 1), dense).time.count_ps() == 912098969);
  // The ceilings bite: 21 outputs on 20 wavelengths take two passes.
  CHECK(cost(phu(1, 20), op("matrix_matrix", {{3, 10}, {7, 10}}, {3, 7})).time.count_ps() ==
        2062);  // 2 * 10 cycles / 9.7 GHz
  CHECK_FALSE(phu(1, 20).supports(op("add", {{4}, {4}}, {4})));
}

TEST_CASE("memory nodes: no time, 200 pJ per element, SRAM split/merge 1 cycle at 6 GHz, start no time") {
  const Cost weights = cost(unit("hbm"), op("memory", {}, {2304, 768}));
  CHECK(weights.time.count_ps() == 0);
  CHECK(weights.energy.picojoules() == doctest::Approx(2304.0 * 768 * 200));
  const Cost split = cost(unit("sram"), op("split_sram", {{12, 5, 64}}, {12, 5, 64}));
  CHECK(split.time.count_ps() == 167);
  CHECK(split.energy.picojoules() == 0.0);
  const Cost start = cost(unit("start"), op("start", {}, {1}));
  CHECK(start.time.count_ps() == 0);
  CHECK(start.energy.picojoules() == 0.0);
}

TEST_CASE("every transfer pair: size-independent time, energy per 32-bit number") {
  const TransferModel* t = &seed().transfers();
  const ir::TensorType tensor{Shape{10, 10}, ir::DType::float32};  // 100 numbers
  struct Case {
    UnitType from, to;
    int64_t ps;
    double pj_per_number;
  };
  const UnitType cpu = seed().find("cpu"), phu_t = seed().find("phu"), hbm_t = seed().find("hbm"),
                 sram_t = seed().find("sram"), start = seed().find("start"), gpu = seed().find("gpu");
  const Case cases[] = {
      {hbm_t, sram_t, 167, 52.0},          // HBM -> SRAM: 1/6 GHz, 40 + 12
      {sram_t, hbm_t, 10000, 52.0},        // SRAM -> HBM: 10 ns, 12 + 40
      {sram_t, cpu, 167, 14.0},            // SRAM -> CPU: 12 + 1 + 1
      {cpu, sram_t, 167, 14.0},            // CPU -> SRAM: 1 + 1 + 12
      {sram_t, phu_t, 10167, 17.18},       // SRAM -> PHU: + 10 ns, + DAC 3.18
      {phu_t, sram_t, 10167, 15.6},        // PHU -> SRAM: + 10 ns, ADC 1.6 + 14
      {cpu, cpu, 333, 28.0},               // through SRAM: two hops
      {hbm_t, cpu, 333, 66.0},             // HBM -> SRAM -> CPU
      {cpu, phu_t, 10333, 31.18},          // CPU -> SRAM -> PHU
      {phu_t, cpu, 10333, 29.6},           // PHU -> SRAM -> CPU
      {phu_t, phu_t, 20333, 32.78},        // PHU -> SRAM -> PHU
      {hbm_t, phu_t, 10333, 69.18},        // HBM -> SRAM -> PHU
      {cpu, hbm_t, 10167, 66.0},           // CPU -> SRAM -> HBM
      {start, cpu, 0, 0.0},                // start -> anything is free
      {start, phu_t, 0, 0.0},
      {gpu, sram_t, 167, 14.0},            // GPU wired like the CPU (assumption)
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    CAPTURE(c.to);
    const Cost cost_small = t->estimate(tensor, c.from, c.to);
    CHECK(cost_small.time.count_ps() == c.ps);
    CHECK(cost_small.energy.picojoules() == doctest::Approx(100 * c.pj_per_number));
    // The quirk: a tensor 1000x larger takes the same time.
    const ir::TensorType big{Shape{1000, 100}, ir::DType::float32};
    CHECK(t->estimate(big, c.from, c.to).time == cost_small.time);
  }
}
