// Energy accounting of a point's report against figures derived here, not by the report code:
//  - breakdown: every (hardware, category) row equals what the hardware models charge for the
//    tasks the point ran, each task's op costed again through its unit's cost model (compute
//    or memory: its energy less conversion; conversion: Cost::conversion_energy; or, for a
//    unit that splits its energy (a device-built PHU), one row per Cost::parts), and each
//    "a->b" data_movement row the transfer energies of the inputs moved from a to b; the rows
//    add up to the total;
//  - a device-built PHU (DOTA-B) has laser, modulation, detection and memory rows that add up
//    more than its DAC/ADC energy, no compute or conversion row, and the other units' rows
//    as above; static rows: each unit type's static power x makespan x instances;
//  - the PHU conversion row (per-number PHU, default profile) equals the DAC/ADC energy of its
//    products from the unit's converter figures: operand elements x DAC energy + output
//    elements x ADC energy;
//  - static power: each unit instance's static energy is static_power x makespan (W x ps = pJ),
//    its breakdown row that times the instances, and the total includes it, at both fidelities.
// SystemC elaborates once per process: one simulated point per test case (ctest runs each
// case in its own process).
#include <doctest/doctest.h>

#include <map>
#include <utility>

#include "frontend/load_model.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;

namespace {

using Rows = std::map<std::pair<std::string, std::string>, double>;

sweep::PointSpec gpt2_point(int64_t seq, const std::string& system, const std::string& fidelity,
                            const std::string& objective = "time") {
  sweep::PointSpec p;
  p.id = "p0";
  p.model = "gpt2";
  p.sequence_length = seq;
  p.system = system;
  p.objective = objective;
  p.profile = "default";
  p.fidelity = parse_fidelity(fidelity);
  return p;
}

std::string shipped(const std::string& system) {
  return test::source_dir() + "/configs/systems/" + system + ".yaml";
}

Rows report_rows(const results::PointResult& r) {
  Rows rows;
  for (const results::EnergyRow& e : r.energy) rows[{e.hardware, e.category}] += e.energy_pj;
  return rows;
}

// The op a task runs: its graph node, or, for what expansion adds (SRAM split and merge, one
// 2-D photonic product), an op built from the task's own kind and shapes.
ir::Node op_of(const ir::Graph& g, const opt::Task& t) {
  if (t.node >= 0 && g.node(t.node).kind == t.kind) return g.node(t.node);
  ir::Node n;
  n.kind = t.kind;
  n.kind_name = t.kind_name;
  n.name = t.name;
  n.input_types = t.input_types;
  n.inputs.resize(t.input_types.size());
  n.outputs = t.outputs;
  return n;
}

bool is_memory(const std::string& unit) {
  return unit == "hbm" || unit == "sram";
}

void check_rows(const Rows& expected, const Rows& got) {
  for (const auto& row : expected) {
    const std::string hardware = row.first.first, category = row.first.second;  // CAPTURE copies
    CAPTURE(hardware);
    CAPTURE(category);
    REQUIRE(got.count(row.first) == 1);
    CHECK(got.at(row.first) == doctest::Approx(row.second).epsilon(1e-12));
  }
  for (const auto& row : got) {
    const std::string hardware = row.first.first, category = row.first.second;
    CAPTURE(hardware);
    CAPTURE(category);
    CHECK(expected.count(row.first) == 1);  // no row the models do not charge
  }
}

// `dac_pj` and `adc_pj`: the system's PHU converter energies per sample (its hardware file);
// both 0 for a device-built PHU (no per-sample figures: its conversion row is not checked).
void check_breakdown(const sweep::PointSpec& p, double dac_pj, double adc_pj) {
  const sweep::PointRun run = sweep::run_point(p);
  const hw::Profile& profile = hw::profile_named("default");
  const hw::System sys = sweep::point_system(p);
  frontend::ModelRequest req;
  req.model = p.model;
  req.length = p.sequence_length;
  req.input_rule = profile.input_rule();
  const ir::Graph g = frontend::load_model(req);

  Rows expected;
  double phu_conversion = 0.0, phu_from_converters = 0.0;
  size_t phu_tasks = 0;
  for (const opt::Task& t : run.tasks.tasks) {
    const std::string unit = sys.unit(t.unit).name;
    // A fused group (one task) is charged its kernel's cost.
    const hw::Cost c = t.fused >= 0 ? sys.model(t.unit).estimate_fused(run.tasks.kernels[static_cast<size_t>(t.fused)])
                                    : sys.model(t.unit).estimate(op_of(g, t), t.algorithm);
    const double conversion = c.conversion_energy.picojoules();
    if (c.parts.empty() && c.energy.picojoules() != 0.0) {
      expected[{unit, is_memory(unit) ? "memory" : "compute"}] +=
          c.energy.picojoules() - conversion;
      if (conversion > 0.0) expected[{unit, "conversion"}] += conversion;
    } else if (!c.parts.empty()) {
      for (size_t k = 0; k < hw::kEnergyParts; ++k) {
        const auto part = static_cast<hw::EnergyPart>(k);
        if (c.parts[part].picojoules() != 0.0) {
          expected[{unit, std::string(hw::energy_part_name(part))}] += c.parts[part].picojoules();
        }
      }
    }
    for (const opt::TaskInput& in : t.inputs) {
      const double e = in.transfer.energy.picojoules();
      const std::string from =
          sys.unit(run.tasks.tasks[static_cast<size_t>(in.producer)].unit).name;
      if (e != 0.0) expected[{from + "->" + unit, "data_movement"}] += e;
    }
    if (unit == "phu") {
      ++phu_tasks;
      phu_conversion += conversion;
      phu_from_converters += dac_pj * static_cast<double>(t.input_types[0].shape.elements() +
                                                          t.input_types[1].shape.elements()) +
                             adc_pj * static_cast<double>(t.outputs[0].shape.elements());
    }
  }
  REQUIRE(phu_tasks > 0);
  // Static power x makespan per unit type (none on the seed systems; DOTA-B's ring tuning).
  const std::vector<double> static_pj = hw::static_energy_pj(sys, run.result.summary.makespan);
  for (size_t u = 0; u < static_pj.size(); ++u) {
    if (static_pj[u] == 0.0) continue;
    expected[{sys.unit(static_cast<hw::UnitType>(u)).name, "static"}] += static_pj[u];
  }
  const Rows got = report_rows(run.result);
  check_rows(expected, got);

  double total = 0.0;
  for (const auto& [key, e] : expected) total += e;
  CHECK(run.result.summary.energy_pj == doctest::Approx(total).epsilon(1e-12));

  CHECK(phu_conversion > 0.0);
  if (dac_pj == 0.0 && adc_pj == 0.0) {
    // Device-built: the categories replace compute and conversion, and hold the conversion.
    CHECK(got.count({"phu", "compute"}) == 0);
    CHECK(got.count({"phu", "conversion"}) == 0);
    double phu_dynamic = 0.0;
    for (const char* part : {"laser", "modulation", "detection", "memory"}) {
      CAPTURE(part);
      REQUIRE(got.count({"phu", part}) == 1);
      CHECK(got.at({"phu", part}) > 0.0);
      phu_dynamic += got.at({"phu", part});
    }
    CHECK(phu_dynamic > phu_conversion);
    return;
  }
  REQUIRE(got.count({"phu", "conversion"}) == 1);
  CHECK(got.at({"phu", "conversion"}) == doctest::Approx(phu_conversion).epsilon(1e-12));
  CHECK(got.at({"phu", "conversion"}) == doctest::Approx(phu_from_converters).epsilon(1e-12));
}

}  // namespace

TEST_CASE("energy breakdown = the cost models' charges, seed CPU/PHU, time objective") {
  // phu_lightcode.yaml: DAC 3.18 pJ per operand element, ADC 1.6 pJ per output element.
  check_breakdown(gpt2_point(150, shipped("cpu_phu"), "event"), 3.18, 1.6);
}

// With the time objective the H100 takes every product, and so does the energy objective at the
// H100's idle power (140 W over the slower photonic products costs more than they save): these
// breakdowns take the GPU's idle power away, so that the PHU runs products and its rows show.
sweep::PointSpec without_gpu_idle(sweep::PointSpec p) {
  p.overrides.emplace_back("units.gpu.static_power", "0 W");
  return p;
}

TEST_CASE("energy breakdown = the cost models' charges, H100-SXM/PHU, energy objective") {
  // phu_lightning.yaml: DAC 3.18 pJ, ADC 3.3 pJ per sample.
  check_breakdown(without_gpu_idle(gpt2_point(128, shipped("h100_sxm_phu"), "event", "energy")), 3.18, 3.3);
}

TEST_CASE("energy breakdown = the cost models' charges, H100-SXM/DOTA-B, energy objective") {
  // The device-built PHU: laser, modulation, detection and memory rows from its event counts.
  check_breakdown(without_gpu_idle(gpt2_point(128, shipped("gpu_dota_b"), "event", "energy")), 0.0, 0.0);
}

namespace {

// CPU/PHU with static power on every unit: two CPU cores at 2 W each, one PHU core at 0.5 W,
// SRAM 0.25 W, HBM 1.5 W (binary fractions: W x ps is exact in pJ).
struct StaticUnit {
  const char* name;
  double watts;
  int instances;
};
constexpr StaticUnit kStatic[] = {
    {"cpu", 2.0, 2}, {"phu", 0.5, 1}, {"sram", 0.25, 1}, {"hbm", 1.5, 1}};

std::string static_power_system(const test::Scratch& s) {
  const std::string hw = test::source_dir() + "/configs/hardware/";
  return s.file(
      "static.yaml",
      "name: CPU/PHU static\nunits:\n"
      "  cpu: {from: " +
          hw +
          "cpu_seed.yaml, cores: 2, static_power: 2 W}\n"
          "  phu: {from: " +
          hw +
          "phu_lightcode.yaml, static_power: 0.5 W}\n"
          "memory:\n"
          "  hbm: {from: " +
          hw +
          "hbm_seed.yaml, static_power: 1.5 W}\n"
          "  sram: {from: " +
          hw +
          "sram_seed.yaml, static_power: 0.25 W}\n"
          "links:\n"
          "  - {src: hbm, dst: sram, latency: 1 ns, bandwidth: 1 TB/s, energy_per_bit: 1 pJ/bit}\n"
          "  - {src: sram, dst: cpu, latency: 1 ns, bandwidth: 200 GB/s, energy_per_bit: 0.5 "
          "pJ/bit}\n"
          "  - {src: sram, dst: phu, latency: 1 ns, bandwidth: 200 GB/s, energy_per_bit: 0.5 "
          "pJ/bit}\n");
}

void check_static_power(const std::string& fidelity) {
  test::Scratch s;
  const sweep::PointRun run = sweep::run_point(gpt2_point(32, static_power_system(s), fidelity));
  const results::PointSummary& sum = run.result.summary;
  REQUIRE(sum.fidelity == fidelity);
  const auto makespan_ps = static_cast<double>(sum.makespan.count_ps());
  REQUIRE(makespan_ps > 0.0);

  // Dynamic energy: every task's own and every input transfer's.
  double dynamic = 0.0;
  for (const opt::Task& t : run.tasks.tasks) {
    dynamic += t.cost.energy.picojoules();
    for (const opt::TaskInput& in : t.inputs) dynamic += in.transfer.energy.picojoules();
  }
  double static_total = 0.0;
  const Rows rows = report_rows(run.result);
  for (const StaticUnit& u : kStatic) {
    const std::string unit = u.name;
    CAPTURE(unit);
    const double per_instance = u.watts * makespan_ps;  // W x ps = pJ
    static_total += per_instance * u.instances;
    const auto row = rows.find({u.name, "static"});
    REQUIRE(row != rows.end());
    CHECK(row->second == doctest::Approx(per_instance * u.instances).epsilon(1e-12));
    int records = 0;
    for (const results::UnitRecord& rec : run.result.units) {
      if (rec.kind != "unit" || rec.name != u.name) continue;
      ++records;
      CHECK(rec.static_energy_pj == doctest::Approx(per_instance).epsilon(1e-12));
    }
    CHECK(records > 0);
  }
  CHECK(sum.energy_pj == doctest::Approx(dynamic + static_total).epsilon(1e-12));
}

}  // namespace

TEST_CASE(
    "static power at event fidelity: static_power x makespan per unit, in the rows and the total") {
  check_static_power("event");
}

TEST_CASE("static power at analytical fidelity: static_power x makespan per unit, in the rows and the total") {
  check_static_power("analytical");
}
