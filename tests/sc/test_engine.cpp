// The SystemC event engine. SystemC elaborates once per process, so every test case here
// simulates at most once; ctest runs each case in its own process (doctest discovery).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "frontend/load_model.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/system.hpp"
#include "sim/engine/engine.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/ir/metrics.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/engine_tasks.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using lightcode::test::independent;
using lightcode::test::kMemory;
using lightcode::test::list_policy;
using lightcode::test::op;
using lightcode::test::system_of;

namespace {

engine::EventResult one_task(const hw::System& sys, const std::string& unit, const ir::Node& n) {
  return engine::simulate(independent(sys, sys.find(unit), {n}), sys, {}, list_policy());
}

const ir::Node kGemm = op("dense", {{2048, 1024}, {1024, 1024}}, {2048, 1024});

sweep::PointSpec gpt2_point(const std::string& model, int64_t seq, const std::string& system) {
  sweep::PointSpec p;
  p.id = "p0";
  p.model = model;
  p.sequence_length = seq;
  p.system = test::source_dir() + "/configs/systems/" + system + ".yaml";
  p.profile = "default";
  p.fidelity = Fidelity::event;
  return p;
}

// CPU/PHU with a 64 KiB SRAM, written to a temporary file whose path starts with `stem`.
std::string tiny_sram_system(const std::string& stem) {
  const std::string dir = test::source_dir() + "/configs/systems/";
  const std::string path = stem + std::to_string(::getpid()) + ".yaml";
  std::ofstream out(path);
  out << "name: tiny SRAM\nunits:\n  cpu: {from: " << dir << "../hardware/cpu_seed.yaml}\n"
      << "  phu: {from: " << dir << "../hardware/phu_lightcode.yaml}\nmemory:\n"
      << "  hbm: {from: " << dir << "../hardware/hbm_seed.yaml}\n  sram: {from: " << dir
      << "../hardware/sram_seed.yaml, capacity: 64 KiB}\nlinks:\n"
      << "  - {src: hbm, dst: sram, latency: 1 ns, bandwidth: 1 TB/s, energy_per_bit: 1 pJ/bit}\n"
      << "  - {src: sram, dst: cpu, latency: 1 ns, bandwidth: 200 GB/s, energy_per_bit: 1 pJ/bit}\n"
      << "  - {src: sram, dst: phu, latency: 1 ns, bandwidth: 200 GB/s, energy_per_bit: 1 pJ/bit}\n";
  return path;
}

}  // namespace

TEST_CASE("one task on an idle system: event time = estimate(), CPU") {
  const hw::System sys = system_of("  cpu: {from: ../hardware/xeon_8480.yaml}\n");
  const ir::Node n = op("softmax", {{1, 12, 128, 128}}, {1, 12, 128, 128});
  const auto r = one_task(sys, "cpu", n);
  CHECK(r.schedule.slots[0].end.count_ps() == sys.model(sys.find("cpu")).estimate(n, 0).time.count_ps());
  CHECK(r.schedule.slots[0].end.count_ps() > 0);
}

TEST_CASE("one task on an idle system: event time = estimate(), GPU") {
  const hw::System sys = system_of("  gpu: {from: ../hardware/h100_sxm.yaml}\n");
  const hw::UnitType gpu = sys.find("gpu");
  const auto r = one_task(sys, "gpu", kGemm);
  CHECK(r.schedule.slots[0].end.count_ps() == sys.model(gpu).estimate(kGemm, 0).time.count_ps());
}

TEST_CASE("one task on an idle system: event time = estimate(), PHU") {
  const hw::System sys = system_of("  phu: {from: ../hardware/phu_lightning.yaml}\n");
  const ir::Node n = op("matrix_matrix", {{150, 768}, {2304, 768}}, {150, 2304});
  const auto r = one_task(sys, "phu", n);
  CHECK(r.schedule.slots[0].end.count_ps() == sys.model(sys.find("phu")).estimate(n, 0).time.count_ps());
}

TEST_CASE("one task on an idle system: event time = estimate(), SRAM") {
  const hw::System sys = system_of("  cpu: {from: ../hardware/cpu_seed.yaml}\n");
  const ir::Node n = op("split_sram", {{12, 5, 64}}, {12, 5, 64});
  const auto r = one_task(sys, "sram", n);
  CHECK(r.schedule.slots[0].end.count_ps() == sys.model(sys.find("sram")).estimate(n, 0).time.count_ps());
}

TEST_CASE("GPU: a kernel of several waves takes the plan's waves to the picosecond") {
  const hw::System sys = system_of("  gpu: {from: ../hardware/h100_lightcode.yaml}\n");
  const auto& gpu = dynamic_cast<const hw::GpuModel&>(sys.model(sys.find("gpu")));
  // An FP32 GEMM (CUDA cores) of many tiles, deep enough to be compute-bound: several waves,
  // the last one partial.
  const ir::Node n = op("dense", {{128 * 145, 4096}, {512, 4096}}, {128 * 145, 512});
  const hw::KernelPlan plan = gpu.plan(n, hw::kGpuTensorCore);
  REQUIRE(plan.sms == 144);
  REQUIRE(plan.waves >= 2);
  REQUIRE(plan.ctas % 144 != 0);
  const auto r = one_task(sys, "gpu", n);
  CHECK(r.schedule.slots[0].end.count_ps() ==
        (plan.latency + plan.runtime_overhead + plan.per_wave * (plan.waves - 1) + plan.last_wave).count_ps());
  CHECK(r.schedule.slots[0].end == plan.total());
}

TEST_CASE("GPU: fewer SMs in the config lengthen a big GEMM proportionally") {
  const hw::System full = system_of("  gpu: {from: ../hardware/h100_sxm.yaml}\n");
  const hw::System half = system_of("  gpu: {from: ../hardware/h100_sxm.yaml, sms_per_tpc: 1}\n");
  const ir::Node big = op("dense", {{8192, 8192}, {8192, 8192}}, {8192, 8192}, ir::DType::bfloat16);
  const int64_t full_ps = full.model(full.find("gpu")).estimate(big, 0).time.count_ps();
  const auto r = one_task(half, "gpu", big);
  const auto& gpu = dynamic_cast<const hw::GpuModel&>(half.model(half.find("gpu")));
  const hw::KernelPlan plan = gpu.plan(big, 0);
  const auto& full_gpu = dynamic_cast<const hw::GpuModel&>(full.model(full.find("gpu")));
  const hw::KernelPlan full_plan = full_gpu.plan(big, 0);
  CHECK(full_ps == full_plan.total().count_ps());
  CHECK(r.schedule.slots[0].end == plan.total());
  const double ratio = plan.waves_time().seconds() / full_plan.waves_time().seconds();
  CHECK(ratio == doctest::Approx(2.0).epsilon(0.02));
}

TEST_CASE("PHU: two products on one core serialise") {
  const hw::System sys = system_of("  phu: {from: ../hardware/phu_lightcode.yaml, cores: 1}\n");
  const ir::Node n = op("matrix_matrix", {{64, 512}, {256, 512}}, {64, 256});
  const auto r = engine::simulate(independent(sys, sys.find("phu"), {n, n}), sys, {}, list_policy());
  const int64_t one = sys.model(sys.find("phu")).estimate(n, 0).time.count_ps();
  CHECK(r.schedule.slots[1].start.count_ps() == r.schedule.slots[0].end.count_ps());
  CHECK(r.schedule.makespan.count_ps() == 2 * one);
}

TEST_CASE("PHU: two cores share each product, so two products run in turn at half the time each") {
  const hw::System one_core = system_of("  phu: {from: ../hardware/phu_lightcode.yaml, cores: 1}\n");
  const hw::System sys = system_of("  phu: {from: ../hardware/phu_lightcode.yaml, cores: 2}\n");
  const ir::Node n = op("matrix_matrix", {{64, 512}, {256, 512}}, {64, 256});
  const auto r = engine::simulate(independent(sys, sys.find("phu"), {n, n}), sys, {}, list_policy());
  const int64_t one = sys.model(sys.find("phu")).estimate(n, 0).time.count_ps();
  CHECK(2 * one == one_core.model(one_core.find("phu")).estimate(n, 0).time.count_ps());
  CHECK(r.schedule.slots[0].start.count_ps() == 0);
  CHECK(r.schedule.slots[1].start.count_ps() == one);
  CHECK(r.schedule.slots[0].instance == r.schedule.slots[1].instance);
  CHECK(r.schedule.makespan.count_ps() == 2 * one);
}

TEST_CASE("PHU: the DAC-bound case shows conversion time") {
  const hw::System sys = system_of(
      "  phu: {from: ../hardware/phu_lightcode.yaml, multiplex: 1024,\n"
      "        dac: {latency: 1 ns, sample_rate: 1 GS/s, energy_per_sample: 3.18 pJ},\n"
      "        adc: {latency: 1 ns, sample_rate: 1 GS/s, energy_per_sample: 1.6 pJ}}\n");
  const ir::Node n = op("matrix_matrix", {{64, 512}, {256, 512}}, {64, 256});
  const hw::Cost c = sys.model(sys.find("phu")).estimate(n, 0);
  REQUIRE(c.bound == hw::Bound::conversion);
  const auto r = one_task(sys, "phu", n);
  const int64_t samples = 64 * 512 + 256 * 512;  // every input element through the DAC
  CHECK(r.schedule.slots[0].end.count_ps() == c.time.count_ps());
  CHECK(c.time.count_ps() == samples * 1000 + 2000);  // 1 ns per sample, plus both latencies
  CHECK(r.conversion[static_cast<size_t>(sys.find("phu"))] == c.time);
  CHECK(c.conversion_energy.picojoules() == doctest::Approx(samples * 3.18 + 64 * 256 * 1.6));
}

namespace {

// Event fidelity with contention off against the analytical scheduler, driving the same
// policy on the same tasks: equal task by task, to the picosecond.
void check_parity(const std::string& model, int64_t length, const std::string& system, const std::string& profile,
                  const std::string& scheduler) {
  sweep::PointSpec p = gpt2_point(model, length, system);
  p.profile = profile;
  p.system = test::system_file(system, profile);
  p.scheduler = scheduler;
  sweep::PointOptions o;
  o.engine.contention = false;
  const auto event = sweep::run_point(p, o);
  const hw::System sys = hw::System::load(p.system, hw::profile_named(profile));
  const sched::Schedule analytical =
      sched::schedule(event.tasks, sched::unit_instances(sys), sched::default_policies().at(scheduler));
  REQUIRE(event.schedule.slots.size() == analytical.slots.size());
  size_t differ = 0;
  for (size_t i = 0; i < analytical.slots.size(); ++i) {
    const sched::Slot &e = event.schedule.slots[i], &a = analytical.slots[i];
    if (e.start != a.start || e.end != a.end || e.instance != a.instance) {
      if (differ++ < 5) MESSAGE("task " << i << " '" << event.tasks.tasks[i].name << "': event " << e.start.count_ps()
                                        << ".." << e.end.count_ps() << " on " << e.instance << ", analytical "
                                        << a.start.count_ps() << ".." << a.end.count_ps() << " on " << a.instance);
    }
  }
  CHECK(differ == 0);
  CHECK(event.schedule.makespan == analytical.makespan);
  CHECK(event.result.summary.makespan == event.result.summary.analytical_makespan);
  CHECK(event.result.summary.scheduler == scheduler);
}

}  // namespace

TEST_CASE("event = analytical to the picosecond: GPT-2 prefill, default profile, list policy") {
  check_parity("gpt2", 150, "cpu_phu", "default", "list");
}
TEST_CASE("event = analytical to the picosecond: GPT-2 prefill, default profile, lightcode policy") {
  check_parity("gpt2", 150, "cpu_phu", "default", "lightcode");
}
TEST_CASE("event = analytical to the picosecond: GPT-2 prefill, lightcode profile, list policy") {
  check_parity("gpt2", 150, "cpu_phu", "lightcode", "list");
}
TEST_CASE("event = analytical to the picosecond: GPT-2 prefill, lightcode profile, lightcode policy") {
  check_parity("gpt2", 150, "cpu_phu", "lightcode", "lightcode");
}
TEST_CASE("event = analytical to the picosecond: llama-2-7b prefill, default profile, list policy") {
  check_parity("llama-2-7b", 128, "gpu_phu", "default", "list");
}
TEST_CASE("event = analytical to the picosecond: llama-2-7b prefill, default profile, lightcode policy") {
  check_parity("llama-2-7b", 128, "gpu_phu", "default", "lightcode");
}
TEST_CASE("event = analytical to the picosecond: llama-2-7b prefill on H100 SXM, fused GPU kernels") {
  // h100_sxm fuses every rule: the fused tasks' SystemC waves come from GpuModel::plan_fused.
  check_parity("llama-2-7b", 128, "h100_sxm", "default", "list");
}
TEST_CASE("event = analytical to the picosecond: llama-2-7b prefill, lightcode profile, list policy") {
  check_parity("llama-2-7b", 128, "cpu_phu", "lightcode", "list");
}
TEST_CASE("event = analytical to the picosecond: llama-2-7b prefill, lightcode profile, lightcode policy") {
  check_parity("llama-2-7b", 128, "cpu_phu", "lightcode", "lightcode");
}

TEST_CASE("the lightcode profile at event fidelity gives the published CPU/PHU makespan (0.13016 s)") {
  sweep::PointSpec p = gpt2_point("gpt2", 150, "cpu_phu");
  p.profile = "lightcode";
  p.system = test::system_file("cpu_phu", "lightcode");
  const auto event = sweep::run_point(p, {});
  CHECK(event.result.summary.scheduler == "lightcode");
  CHECK(event.result.summary.fidelity == "event");
  CHECK(std::llround(event.result.summary.makespan_s * 1e5) == 13016);
}

TEST_CASE("contention on: a saturated link lengthens the makespan and shows its queue") {
  // One PHU product feeds four adds on four CPU cores: its result crosses PHU -> SRAM (100 GB/s)
  // and then the 1 GB/s SRAM -> CPU link, four times.
  const hw::System sys = system_of(
      "  cpu: {from: ../hardware/cpu_seed.yaml, cores: 4}\n  phu: {from: ../hardware/phu_lightcode.yaml}\n",
      "  - {src: sram, dst: cpu, latency: 1 ns, bandwidth: 1 GB/s, energy_per_bit: 0.4 pJ/bit}\n"
      "  - {src: sram, dst: phu, latency: 10 ns, bandwidth: 100 GB/s, energy_per_bit: 0.4 pJ/bit}\n");
  const hw::UnitType cpu = sys.find("cpu"), phu = sys.find("phu");
  const ir::Node add = op("add", {{256, 1024}, {256, 1024}}, {256, 1024});
  opt::TaskGraph g = independent(sys, phu, {op("matrix_matrix", {{256, 512}, {1024, 512}}, {256, 1024})});
  opt::TaskGraph adds = independent(sys, cpu, {add, add, add, add});
  const hw::Cost move = sys.transfers().estimate(ir::TensorType{ir::Shape{256, 1024}, ir::DType::float32}, phu, cpu);
  for (opt::Task& t : adds.tasks) {
    t.inputs = {opt::TaskInput{0, move}};
    g.tasks.push_back(t);
  }
  const sched::Schedule analytical = sched::schedule(g, sched::unit_instances(sys), list_policy());
  const auto r = engine::simulate(g, sys, {}, list_policy());
  CHECK(r.schedule.makespan.count_ps() > analytical.makespan.count_ps());
  // Analytically all four start together; on the shared link they arrive one after another.
  CHECK(analytical.slots[1].start.count_ps() == analytical.slots[4].start.count_ps());
  CHECK(r.schedule.slots[4].start.count_ps() > r.schedule.slots[1].start.count_ps());
  int64_t queued = 0;
  for (const auto& link : r.links) {
    if (link.name == "sram->cpu") {
      queued = link.queue_delay.count_ps();
      CHECK(link.bytes == 4 * 256 * 1024 * 4);
      CHECK(link.transfers == 4);
    }
  }
  // Each transfer waited for the ones before it: 0 + 1 + 2 + 3 serialisation times, less the
  // stagger the faster PHU -> SRAM hop already put between them (1 MiB at 100 GB/s each).
  const int64_t slow = 256 * 1024 * 4 * 1000;  // 1 MiB at 1 GB/s, in ps
  const int64_t fast = slow / 100;
  CHECK(queued == doctest::Approx(6.0 * static_cast<double>(slow - fast)).epsilon(1e-6));
}

TEST_CASE("memory profile: SRAM and HBM occupancy over time, SRAM overflow is a clear error") {
  const std::string tiny = tiny_sram_system("/tmp/lightcode_tiny_sram_");
  sweep::PointSpec p = gpt2_point("gpt2", 64, "cpu_phu");
  p.system = tiny;
  try {
    sweep::run_point(p);
    FAIL("expected an SRAM overflow");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("SRAM overflow") != std::string::npos);
    CHECK(std::string(e.what()).find("65536 B") != std::string::npos);
  }
  std::remove(tiny.c_str());
}

TEST_CASE("memory profile: with spill on, an SRAM overflow spills to HBM and the point completes") {
  const std::string tiny = tiny_sram_system("/tmp/lightcode_tiny_sram_spill_");
  sweep::PointSpec p = gpt2_point("gpt2", 64, "cpu_phu");
  p.system = tiny;
  sweep::PointOptions o;
  o.engine.spill_sram = true;
  const auto r = sweep::run_point(p, o);
  std::remove(tiny.c_str());
  CHECK(r.result.summary.status == results::Status::ok);
  REQUIRE(!r.result.memory_profile.empty());
  int64_t sram_peak = 0, hbm_peak = 0;
  for (const auto& m : r.result.memory_profile) {
    sram_peak = std::max(sram_peak, m.sram_bytes);
    hbm_peak = std::max(hbm_peak, m.hbm_bytes);
  }
  CHECK(sram_peak <= 64 * 1024);  // never above capacity: the rest went to HBM
  CHECK(hbm_peak > 0);
}

namespace {

// A family that exists only in this test: an "NPU" that runs matrix products at a fixed MAC
// rate and nothing else. New files (here: this class) plus one registration line.
const ParamTable& npu_params() {
  static const ParamTable table{"npu", "test-only NPU", {
      Param::meta("family").doc("`npu`"),
      Param::count("cores", limits::kUnitCount).required().doc("cores"),
      Param::quantity("mac_rate", Dimension::mac_rate).positive().required().doc("MACs per second per core"),
  }};
  return table;
}

class NpuModel final : public hw::HardwareModel {
 public:
  explicit NpuModel(const Params& spec)
      : cores_(static_cast<int>(spec.count("cores"))), mac_rate_(spec.quantity("mac_rate")) {}
  hw::Capabilities capabilities() const override { return hw::Capabilities{}; }
  int unit_count() const override { return cores_; }
  hw::AlgorithmList algorithms(const ir::Node& op) const override {
    hw::AlgorithmList list;
    if (ir::is_matrix_product(op.kind)) list.add(0);
    return list;
  }
  std::string_view algorithm_name(hw::AlgorithmId) const override { return "systolic"; }
  hw::Cost estimate(const ir::Node& op, hw::AlgorithmId) const override {
    hw::Cost c;
    c.time = Time::from_seconds(static_cast<double>(ir::node_macs(op)) / mac_rate_);
    c.energy = Energy::pj(0.01 * static_cast<double>(ir::node_macs(op)));
    return c;
  }

 private:
  int cores_ = 1;
  double mac_rate_ = 1.0;
};

std::unique_ptr<hw::HardwareModel> make_npu(const Params& spec) { return std::make_unique<NpuModel>(spec); }

}  // namespace

TEST_CASE("a test-only hardware family runs end to end: selection, scheduling and the engine") {
  hw::Registry registry;
  hw::register_all(registry);
  registry.add(hw::FamilyInfo{"npu", "test-only NPU", {{"systolic", "matrix products"}}, hw::Section::units, make_npu, {},
                              hw::make_service_modules, nullptr, &npu_params()});  // the one registration line
  const std::string text =
      "name: CPU/NPU\nunits:\n  cpu: {from: ../hardware/cpu_seed.yaml}\n"
      "  npu: {family: npu, cores: 2, mac_rate: 50 TMAC/s}\n" + std::string(kMemory) +
      "links:\n  - {src: hbm, dst: sram, latency: 1 ns, bandwidth: 1 TB/s}\n"
      "  - {src: sram, dst: cpu, latency: 1 ns, bandwidth: 100 GB/s}\n"
      "  - {src: sram, dst: npu, latency: 1 ns, bandwidth: 100 GB/s}\n";
  const hw::System sys = hw::System::from_config(
      ConfigNode::parse(text, "npu_system.yaml", test::source_dir() + "/configs/systems"), hw::profile_named("default"),
      registry);
  frontend::ModelRequest r;
  r.model = "gpt2";
  r.length = 64;
  const ir::Graph g = frontend::load_model(r);
  const opt::StackedGraph stacks(g, sys);
  const opt::Partition part = opt::partition(g);
  const opt::TaskGraph tasks = opt::expand(stacks, part, opt::place(stacks, part, opt::Objective::time));
  const hw::UnitType npu = sys.find("npu");
  size_t on_npu = 0;
  for (const opt::Task& t : tasks.tasks) on_npu += t.unit == npu ? 1 : 0;
  CHECK(on_npu >= 48);  // the products: faster on the NPU than on one CPU core
  const sched::Schedule analytical = sched::schedule(tasks, sched::unit_instances(sys), list_policy());
  engine::EngineOptions o;
  o.contention = false;
  const engine::EventResult event = engine::simulate(tasks, sys, o, list_policy());
  CHECK(event.schedule.makespan == analytical.makespan);
  CHECK(event.schedule.makespan > Time::zero());
  size_t differ = 0;
  for (size_t i = 0; i < tasks.tasks.size(); ++i) {
    differ += event.schedule.slots[i].start != analytical.slots[i].start ? 1 : 0;
    if (tasks.tasks[i].unit == npu) CHECK(event.schedule.slots[i].instance < 2);
  }
  CHECK(differ == 0);
}

TEST_CASE("a family without SystemC modules is an error naming it at event fidelity, not a CPU core") {
  hw::Registry registry;
  hw::register_all(registry);
  registry.add(hw::FamilyInfo{"npu", "test-only NPU without modules", {{"systolic", "matrix products"}},
                              hw::Section::units, make_npu, {}, nullptr, nullptr, &npu_params()});
  const hw::System sys = hw::System::from_config(
      ConfigNode::parse("name: N\nunits:\n  npu: {family: npu, cores: 1, mac_rate: 1 TMAC/s}\n" + std::string(kMemory),
                        "npu.yaml", test::source_dir() + "/configs/systems"),
      hw::profile_named("default"), registry);
  const ir::Node n = op("dense", {{4, 8}, {8, 8}}, {4, 8});
  try {
    engine::simulate(independent(sys, sys.find("npu"), {n}), sys, {}, list_policy());
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "unit 'npu' (family 'npu') has no SystemC modules registered: it cannot run at event fidelity");
  }
}
