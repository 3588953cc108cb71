// The GPU power model (hw_models/gpu/gpu_power_fit.hpp) on the datasheet H100 SXM5 and A100
// SXM4: each kernel's energy split by the resource that spends it (tensor cores, CUDA cores,
// HBM, active power) against hand-computed FLOPs and bytes, and the power limit's throttling.
#include <doctest/doctest.h>

#include <string>

#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/gpu/gpu_power_fit.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;
using ir::DType;
using lightcode::test::op;

namespace {

// A shipped GPU file, with `key` set to `value` when given.
GpuSpec power_spec(const std::string& file, const std::string& key = "", const std::string& value = "") {
  const ConfigNode node = ConfigNode::load_file(test::source_dir() + "/configs/hardware/" + file);
  return parse_gpu_spec(key.empty() ? node : node.with_value(key, value, "test"));
}

double board_watts(const GpuSpec& s, const Cost& c, const KernelPlan& p) {
  const double dynamic_j = c.parts[EnergyPart::tensor_cores].joules() + c.parts[EnergyPart::cuda_cores].joules() +
                           c.parts[EnergyPart::hbm].joules();
  return s.static_power_w + s.active_power_w + dynamic_j / p.kernel().seconds();
}

}  // namespace

TEST_CASE("GPU ledger: a BF16 GEMM's energy is its MACs, its HBM bytes and its active time, each once") {
  const GpuSpec spec = power_spec("h100_sxm.yaml");
  const GpuModel gpu(spec);
  constexpr int64_t m = 512, n = 4096, k = 4096;
  const ir::Node g = op("dense", {{m, k}, {n, k}}, {m, n}, DType::bfloat16);
  const Cost c = gpu.estimate(g, kGpuTensorCore);
  const KernelPlan p = gpu.plan(g, kGpuTensorCore);
  // By hand: 2 x share x 700 W / 989.4 TFLOP/s per MAC; (m k + n k + m n) x 2 B moved.
  const double mac_j = 2.0 * gpu_power::kTensorShare * 700.0 / 989.4e12;
  const double macs = static_cast<double>(m * n * k);
  const double bytes = 2.0 * static_cast<double>(m * k + n * k + m * n);
  CHECK(c.parts[EnergyPart::tensor_cores].joules() == doctest::Approx(macs * mac_j).epsilon(1e-12));
  CHECK(c.parts[EnergyPart::cuda_cores].joules() == 0.0);  // no epilogue
  CHECK(c.bytes_read + c.bytes_written == static_cast<int64_t>(bytes));
  CHECK(c.parts[EnergyPart::hbm].joules() ==
        doctest::Approx(bytes * 8.0 * gpu_power::kHbmEnergyPerBitJ).epsilon(1e-12));
  CHECK(c.parts[EnergyPart::active].joules() ==
        doctest::Approx(gpu_power::kActiveShare * 700.0 * p.kernel().seconds()).epsilon(1e-12));
  CHECK(c.energy.picojoules() == doctest::Approx(c.parts.total().picojoules()).epsilon(1e-15));
  CHECK(spec.static_power_w == 140.0);  // idle: the report's, over the makespan
}

TEST_CASE("GPU ledger: an element-wise add is CUDA-core lane ops and HBM bytes, and FP8 MACs cost half of BF16's") {
  const GpuSpec spec = power_spec("h100_sxm.yaml");
  const GpuModel gpu(spec);
  constexpr int64_t rows = 1024, cols = 4096;
  const ir::Node add = op("add", {{rows, cols}, {rows, cols}}, {rows, cols}, DType::float16);
  const Cost c = gpu.estimate(add, kGpuCudaCore);
  const double fma_peak = 2.0 * 128 * 132 * 1.98e9;
  CHECK(spec.energy_per_flop_j == doctest::Approx(gpu_power::kCudaShare * 700.0 / fma_peak).epsilon(1e-12));
  CHECK(c.parts[EnergyPart::cuda_cores].joules() ==
        doctest::Approx(static_cast<double>(rows * cols) * spec.energy_per_flop_j).epsilon(1e-12));
  CHECK(c.parts[EnergyPart::tensor_cores].joules() == 0.0);
  CHECK(c.parts[EnergyPart::hbm].joules() ==
        doctest::Approx(3.0 * 2.0 * rows * cols * 8.0 * gpu_power::kHbmEnergyPerBitJ).epsilon(1e-12));
  // The energy per MAC follows the dtype's datasheet rate.
  const ir::Node bf16 = op("dense", {{256, 4096}, {4096, 4096}}, {256, 4096}, DType::bfloat16);
  const ir::Node fp8 = op("dense", {{256, 4096}, {4096, 4096}}, {256, 4096}, DType::float8);
  CHECK(gpu.estimate(fp8, kGpuTensorCore).parts[EnergyPart::tensor_cores].joules() ==
        doctest::Approx(gpu.estimate(bf16, kGpuTensorCore).parts[EnergyPart::tensor_cores].joules() / 2.0));
}

TEST_CASE("power limit: an 8192^3 BF16 GEMM on the A100 runs at its 400 W limit, at 258 TFLOP/s") {
  // gpu_power_facts.md section 4: cuBLAS reaches 258 TFLOP/s on it at 400 W (random inputs):
  // the fact the tensor share is fitted to, so the throttled rate is that figure.
  const GpuSpec spec = power_spec("a100_sxm.yaml");
  const GpuModel gpu(spec);
  constexpr int64_t n = 8192;
  const ir::Node g = op("dense", {{n, n}, {n, n}}, {n, n}, DType::bfloat16);
  const Cost c = gpu.estimate(g, kGpuTensorCore);
  const KernelPlan p = gpu.plan(g, kGpuTensorCore);
  CHECK(c.bound == Bound::power);
  CHECK(p.clock_scale < 1.0);
  CHECK(board_watts(spec, c, p) == doctest::Approx(400.0).epsilon(1e-6));
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  // The HBM bytes take a little of the power too: the rate is just under 258 TFLOP/s.
  CHECK(flops / p.kernel().seconds() == doctest::Approx(258e12).epsilon(0.02));
  // A lower limit: slower, at that limit; a limit no kernel reaches changes nothing.
  const GpuSpec capped = power_spec("a100_sxm.yaml", "power_limit", "250 W");
  const GpuModel slow(capped);
  const Cost cs = slow.estimate(g, kGpuTensorCore);
  CHECK(cs.time > c.time);
  CHECK(board_watts(capped, cs, slow.plan(g, kGpuTensorCore)) == doctest::Approx(250.0).epsilon(1e-6));
  const GpuModel free_run(power_spec("a100_sxm.yaml", "power_limit", "2000 W"));
  CHECK(free_run.estimate(g, kGpuTensorCore).bound == Bound::compute);
  CHECK(free_run.estimate(g, kGpuTensorCore).time < c.time);
}

TEST_CASE("power limit: a memory-bound decode GEMM is not throttled, and a limit below idle + active is refused") {
  const GpuSpec spec = power_spec("h100_sxm.yaml");
  const GpuModel gpu(spec);
  const ir::Node decode = op("dense", {{8, 4096}, {11008, 4096}}, {8, 11008}, DType::bfloat16);
  const Cost c = gpu.estimate(decode, kGpuTensorCore);
  CHECK(c.bound != Bound::power);
  CHECK(board_watts(spec, c, gpu.plan(decode, kGpuTensorCore)) < 700.0);
  CHECK_THROWS_WITH_AS(power_spec("h100_sxm.yaml", "power_limit", "150 W"),
                       doctest::Contains("must be above static_power + active_power"), Error);
}

TEST_CASE("without tdp the GPU keeps the seed's energies: 0.07 pJ per MAC, no active power, no limit") {
  const GpuSpec spec = parse_gpu_spec(ConfigNode::load_file(test::source_dir() + "/configs/hardware/h100_lightcode.yaml"));
  CHECK(spec.tdp_w == 0.0);
  CHECK(spec.power_limit_w == 0.0);
  CHECK(spec.active_power_w == 0.0);
  CHECK(spec.energy_per_hbm_byte_j == 0.0);
  const GpuModel gpu(spec);
  const ir::Node g = op("dense", {{256, 768}, {768, 768}}, {256, 768}, DType::float32);
  const Cost c = gpu.estimate(g, kGpuTensorCore);
  CHECK(c.parts[EnergyPart::tensor_cores].picojoules() == doctest::Approx(256.0 * 768 * 768 * 0.07));
  CHECK(c.parts[EnergyPart::active].picojoules() == 0.0);
}
