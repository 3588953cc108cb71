// Cost-model budgets (issue: hardware models): the selector asks estimate() millions of times.
// On one core: >= 20 million estimate() calls per second for the `lightcode` profile (CPU and
// PHU), >= 10 million for a device-built PHU (DOTA-B) and >= 5 million for the default GPU
// model, on a mix of GPT-2 prefill ops (also measured: the default CPU model with calibrated
// fits, and both transfer models).
// Results in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <vector>

#include "hw_models/cpu/cpu_model.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "hw_models/system.hpp"
#include "hw_models/link/link_transfer_model.hpp"
#include "hw_models/phu/phu_spec.hpp"

using namespace lightcode;

namespace {

ir::Node op(const char* kind, std::vector<ir::Shape> inputs, ir::Shape output) {
  ir::Node n;
  n.kind_name = kind;
  n.kind = ir::parse_op_kind(kind);
  for (const ir::Shape& s : inputs) n.input_types.push_back({s, ir::DType::float32});
  n.inputs.resize(inputs.size());
  n.outputs = {{output, ir::DType::float32}};
  return n;
}

// One GPT-2 layer's op mix at 1024 tokens (12 heads of 64), plus the embedding and the head.
std::vector<ir::Node> gpt2_ops() {
  const int64_t s = 1024;
  return {
      op("take", {{50257, 768}, {1, s}}, {1, s, 768}),
      op("mean", {{1, s, 768}}, {1, s, 1}),
      op("subtract", {{1, s, 768}, {1, s, 1}}, {1, s, 768}),
      op("power", {{1, s, 768}, {}}, {1, s, 768}),
      op("rsqrt", {{1, s, 1}}, {1, s, 1}),
      op("nop", {{1, s, 768}}, {s, 768}),
      op("dense", {{s, 768}, {2304, 768}}, {s, 2304}),
      op("add", {{s, 2304}, {2304}}, {s, 2304}),
      op("split", {{1, s, 2304}}, {1, s, 768}),
      op("transpose", {{1, s, 12, 64}}, {1, 12, s, 64}),
      op("matmul", {{12, s, 64}, {12, s, 64}}, {12, s, s}),
      op("divide", {{1, 12, s, s}, {}}, {1, 12, s, s}),
      op("where", {{1, 1, s, s}, {1, 12, s, s}, {}}, {1, 12, s, s}),
      op("softmax", {{1, 12, s, s}}, {1, 12, s, s}),
      op("matmul", {{12, s, s}, {12, 64, s}}, {12, s, 64}),
      op("dense", {{s, 768}, {768, 768}}, {s, 768}),
      op("dense", {{s, 768}, {3072, 768}}, {s, 3072}),
      op("tanh", {{1, s, 3072}}, {1, s, 3072}),
      op("multiply", {{1, s, 3072}, {1, s, 3072}}, {1, s, 3072}),
      op("dense", {{s, 3072}, {768, 3072}}, {s, 768}),
      op("dense", {{s, 768}, {50257, 768}}, {s, 50257}),
  };
}

ConfigNode hardware(const char* file) {
  return ConfigNode::load_file(std::string(LIGHTCODE_BENCH_CONFIGS) + "/hardware/" + file);
}

// The seed's CPU/PHU system under the lightcode profile: its models read their figures from
// the *_lightcode.yaml specs.
const hw::System& lightcode_cpu_phu() {
  static const hw::System system = hw::System::load(
      std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/lightcode/cpu_phu.yaml", hw::profile_named("lightcode"));
  return system;
}

void estimate_mix(benchmark::State& state, const hw::HardwareModel& model) {
  const std::vector<ir::Node> ops = gpt2_ops();
  std::vector<hw::AlgorithmId> algos;
  for (const ir::Node& n : ops) algos.push_back(model.algorithms(n).ids[0]);
  for (auto _ : state) {
    for (size_t i = 0; i < ops.size(); ++i) {
      benchmark::DoNotOptimize(model.estimate(ops[i], algos[i]));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ops.size()));
}

void gpu_estimate(benchmark::State& state) {
  const hw::GpuModel gpu(hw::parse_gpu_spec(hardware("h100_sxm.yaml")));
  estimate_mix(state, gpu);
}

void cpu_estimate(benchmark::State& state) {  // with the calibrated fits of the seed's CPU
  const auto cpu = hw::make_cpu_model(hw::parse_cpu_spec(hardware("cpu_seed.yaml")));
  estimate_mix(state, *cpu);
}

void link_estimate(benchmark::State& state) {
  const std::vector<std::string> units{"cpu", "gpu", "phu", "hbm", "sram"};
  std::vector<hw::LinkSpec> links(3);
  links[0] = {"hbm", "sram", 1e-9, 1e12, 1e-12, true, {}};
  links[1] = {"sram", "cpu", 1e-9, 2e11, 0.4e-12, true, {}};
  links[2] = {"sram", "phu", 1e-8, 2e11, 0.4e-12, true, {}};
  const auto t = hw::make_link_transfer_model(units, links, 4);  // relay: sram
  const std::vector<ir::Node> ops = gpt2_ops();
  for (auto _ : state) {
    for (const ir::Node& n : ops)
      benchmark::DoNotOptimize(t->estimate(n.output(), 3, 0));  // hbm -> cpu
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ops.size()));
}

void lightcode_cpu_estimate(benchmark::State& state) {
  const hw::System& sys = lightcode_cpu_phu();
  estimate_mix(state, sys.model(sys.find("cpu")));
}

// The PHU runs only the products of the mix.
void estimate_products(benchmark::State& state, const hw::HardwareModel* phu) {
  std::vector<ir::Node> ops;
  for (ir::Node& n : gpt2_ops()) {
    if (ir::is_matrix_product(n.kind)) ops.push_back(std::move(n));
  }
  for (auto _ : state) {
    for (const ir::Node& n : ops) benchmark::DoNotOptimize(phu->estimate(n, 0));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ops.size()));
}

void lightcode_phu_estimate(benchmark::State& state) {
  const hw::System& sys = lightcode_cpu_phu();
  estimate_products(state, &sys.model(sys.find("phu")));
}

// The default profile's device-built PHU (DOTA-B 4-bit): event counts per product; budget
// >= 10 million estimates per second (issue 14).
void dota_phu_estimate(benchmark::State& state) {
  static const hw::System sys = hw::System::load(std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/gpu_dota_b.yaml",
                                                 hw::profile_named("default"));
  estimate_products(state, &sys.model(sys.find("phu")));
}

void lightcode_transfer_estimate(benchmark::State& state) {
  const hw::TransferModel* t = &lightcode_cpu_phu().transfers();  // units: cpu, phu, hbm, sram, start
  const std::vector<ir::Node> ops = gpt2_ops();
  for (auto _ : state) {
    for (const ir::Node& n : ops) benchmark::DoNotOptimize(t->estimate(n.output(), 0, 1));  // cpu -> phu
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ops.size()));
}

}  // namespace

// Loading a system: YAML with `from:` inheritance, every unit read through its parameter
// table, models built, the unread-key check. Once per point.
void system_load(benchmark::State& state) {
  const std::string path = std::string(LIGHTCODE_BENCH_CONFIGS) + "/systems/h100_sxm_phu.yaml";
  for (auto _ : state) benchmark::DoNotOptimize(hw::System::load(path, hw::profile_named("default")).unit_count());
}

BENCHMARK(system_load);
BENCHMARK(lightcode_cpu_estimate);
BENCHMARK(lightcode_phu_estimate);
BENCHMARK(dota_phu_estimate);
BENCHMARK(lightcode_transfer_estimate);
BENCHMARK(gpu_estimate);
BENCHMARK(cpu_estimate);
BENCHMARK(link_estimate);

BENCHMARK_MAIN();
