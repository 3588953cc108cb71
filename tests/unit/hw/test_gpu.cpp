// Default-profile GPU model on the datasheet H100 SXM5 (configs/hardware/h100_sxm.yaml):
// GEMM plans (tiles, waves, split-K) chosen by search, streaming kernels per class, the SM
// hierarchy. Fused kernels: test_gpu_fused.cpp; runtimes and keys: test_gpu_runtime.cpp.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "hw_models/gpu/gpu_kernel_fit.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "tests/support/nodes.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;
using ir::DType;
using ir::Shape;
using lightcode::test::op;

namespace {

GpuSpec h100_sxm() {
  return parse_gpu_spec(
      ConfigNode::load_file(test::source_dir() + "/configs/hardware/h100_sxm.yaml"));
}

ir::Node gemm(int64_t m, int64_t n, int64_t k, DType t = DType::bfloat16) {
  return op("dense", {{m, k}, {n, k}}, {m, n}, t);
}

double peak_seconds(const ir::Node& g, double peak_flops) {
  return 2.0 * static_cast<double>(g.output().shape.elements()) *
         static_cast<double>(g.input_type(0).shape.back()) / peak_flops;
}

}  // namespace

TEST_CASE("a 4096^3 BF16 GEMM on H100 SXM: tensor cores, compute-bound, 0.139-0.25 ms") {
  const GpuModel gpu(h100_sxm());
  const ir::Node g = gemm(4096, 4096, 4096);
  const AlgorithmList algos = gpu.algorithms(g);
  REQUIRE(algos.count == 2);
  CHECK(algos.ids[0] == kGpuTensorCore);
  CHECK(algos.ids[1] == kGpuCudaCore);
  const Cost c = gpu.estimate(g, kGpuTensorCore);
  CHECK(c.bound == Bound::compute);
  CHECK(c.time.seconds() >= peak_seconds(g, 989.4e12));  // never faster than the peak rate
  CHECK(c.time.seconds() <= 0.25e-3);
  const KernelPlan p = gpu.plan(g, kGpuTensorCore);
  CHECK(p.sms == 132);
  CHECK(p.split_k == 1);  // 4096 / tile ^ 2 tiles fill the SMs many times
  CHECK(p.ctas == (4096 / p.tile_m) * (4096 / p.tile_n));
  CHECK(p.waves == (p.ctas + 131) / 132);
  CHECK(p.total() == c.time);  // estimate() is the plan
  CHECK(c.energy.picojoules() >= 4096.0 * 4096 * 4096 * 0.07);
  // The CUDA-core fallback is an order of magnitude slower.
  CHECK(gpu.estimate(g, kGpuCudaCore).time > c.time * 8);
}

TEST_CASE("the plan search keeps the fastest tile: a large GEMM takes a large tile") {
  const GpuModel gpu(h100_sxm());
  const KernelPlan p = gpu.plan(gemm(4096, 12288, 4096), kGpuTensorCore);
  CHECK(p.tile_m * p.tile_n >= 128 * 128);
  // No other tile of the menu, and no split, is faster: compare with forced plans through
  // GEMMs whose only fitting tile is smaller (a 64-row GEMM cannot use 128-row tiles well).
  const KernelPlan small = gpu.plan(gemm(64, 12288, 4096), kGpuTensorCore);
  CHECK(small.tile_m == 64);
}

TEST_CASE("no GEMM beats the tensor peak, whatever its shape") {
  const GpuModel gpu(h100_sxm());
  for (const auto& mnk : std::vector<std::array<int64_t, 3>>{{1, 768, 768},
                                                             {128, 128, 128},
                                                             {1000, 3000, 777},
                                                             {8192, 8192, 8192},
                                                             {1, 50257, 768}}) {
    const int64_t m = mnk[0], n = mnk[1], k = mnk[2];
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    const ir::Node g = gemm(m, n, k);
    CHECK(gpu.estimate(g, kGpuTensorCore).time.seconds() >= peak_seconds(g, 989.4e12));
    CHECK(gpu.plan(g, kGpuTensorCore).kernel() <= gpu.plan(g, kGpuTensorCore).total());
  }
}

TEST_CASE("a partial last wave costs a whole wave only when compute limits it") {
  const GpuModel gpu(h100_sxm());
  // A deep square GEMM (compute-bound) whose CTAs do not divide into the SMs: its last,
  // partial wave costs a CTA's full compute time.
  GpuModel::GemmWork deep;
  deep.batch = 1;
  deep.m = 4096;
  deep.n = 4096;
  deep.k = 8192;
  deep.read_bytes = 2.0 * 4096 * 8192 * 2;
  deep.write_bytes = 4096.0 * 4096 * 2;
  const KernelPlan c = gpu.gemm_plan(deep, true, DType::float16);
  REQUIRE(c.bound == Bound::compute);
  CHECK(c.waves >= 2);
  CHECK(c.ctas % 132 != 0);
  // A whole CTA's compute (only the overlap loss on its smaller memory share is saved).
  CHECK(c.last_wave <= c.per_wave);
  CHECK(c.last_wave.seconds() >= c.per_wave.seconds() / (1.0 + gpu_fit::kGemmOverlapLoss));
  // A shallow GEMM with huge operands (memory-bound): the last partial wave moves only its
  // CTAs' share of the bytes, so it is shorter than a full wave.
  GpuModel::GemmWork wide = deep;
  wide.k = 64;
  wide.read_bytes = 40e9;
  const KernelPlan m = gpu.gemm_plan(wide, true, DType::float16);
  REQUIRE(m.bound == Bound::memory);
  if (m.ctas % 132 != 0) CHECK(m.last_wave < m.per_wave);
  // Memory-bound kernels stream at the full device bandwidth whatever their CTA count.
  CHECK(m.waves_time().seconds() ==
        doctest::Approx(40e9 / (3.35e12 * gpu_fit::kGemmHbmFraction)).epsilon(0.25));
}

TEST_CASE("a 1 GiB element-wise add streams at the element-wise class's bandwidth") {
  const GpuSpec spec = h100_sxm();
  const GpuModel gpu(spec);
  const Shape s{16384, 16384};  // 2^28 float32 = 1 GiB
  const ir::Node add = op("add", {s, s}, s, DType::float32);
  REQUIRE(gpu.algorithms(add).count == 1);
  CHECK(gpu.algorithms(add).ids[0] == kGpuCudaCore);
  const Cost c = gpu.estimate(add, kGpuCudaCore);
  CHECK(c.bound == Bound::memory);
  const double bytes = 3.0 * 1024 * 1024 * 1024;  // two read, one written
  CHECK(c.bytes_read + c.bytes_written == static_cast<int64_t>(bytes));
  const double kernel =
      bytes / (3.35e12 * gpu_fit::kElementwise.hbm_fraction) + gpu_fit::kElementwise.latency_s;
  // Eager: a kernel far longer than a launch pays only the kernel gap.
  const double expected = kernel + spec.timing.kernel_gap_s;
  CHECK(c.time.seconds() == doctest::Approx(expected).epsilon(1e-6));
}

TEST_CASE("streaming classes differ: a norm's reduction streams slower than an add") {
  const GpuModel gpu(h100_sxm());
  const Shape s{4096, 4096};
  const Cost add = gpu.estimate(op("add", {s, s}, s, DType::float16), kGpuCudaCore);
  const Cost mean = gpu.estimate(op("mean", {s}, {4096, 1}, DType::float16), kGpuCudaCore);
  // Per byte moved the mean is slower (achieved bandwidth 0.39 vs 1.0 of HBM's).
  const auto per_byte = [](const Cost& c) {
    return c.time.seconds() / static_cast<double>(c.bytes_read + c.bytes_written);
  };
  CHECK(per_byte(mean) > 2.0 * per_byte(add));
}

TEST_CASE("copies are HBM-bound, views are free, memory nodes are not GPU work") {
  const GpuModel gpu(h100_sxm());
  const Shape s{1024, 1024};
  const ir::Node t = op("transpose", {s}, s, DType::float32);
  REQUIRE(gpu.algorithms(t).count == 1);
  CHECK(gpu.algorithms(t).ids[0] == kGpuCopy);
  CHECK(gpu.estimate(t, kGpuCopy).bytes_read == 4 * 1024 * 1024);
  const ir::Node reshape = op("nop", {s}, {1024 * 1024}, DType::float32);
  CHECK(gpu.estimate(reshape, kGpuCopy).time == Time::zero());
  CHECK_FALSE(gpu.supports(op("memory", {}, s, DType::float32)));
  CHECK_FALSE(gpu.supports(op("split_sram", {s}, s, DType::float32)));
}

TEST_CASE("changing sms_per_tpc changes waves, per-SM shares and CUDA-core rate") {
  GpuSpec half = h100_sxm();
  half.sms_per_tpc = 1;  // 66 SMs
  const GpuModel full_gpu(h100_sxm());
  const GpuModel half_gpu(half);
  const ir::Node g = gemm(8192, 8192, 8192);
  const KernelPlan pf = full_gpu.plan(g, kGpuTensorCore);
  const KernelPlan ph = half_gpu.plan(g, kGpuTensorCore);
  CHECK(ph.sms == 66);
  CHECK(ph.waves == (ph.ctas + 65) / 66);
  // Tensor figures are per SM (tensor_throughput_sms): half the SMs, half the peak, so a
  // compute-bound GEMM takes about twice as long.
  CHECK(ph.waves_time().seconds() == doctest::Approx(2 * pf.waves_time().seconds()).epsilon(0.03));
  // CUDA cores are counted per SM: half the SMs, about half the rate for a compute-bound kernel.
  const ir::Node g64 = gemm(8192, 8192, 8192, DType::float64);  // no FP64 tensor entry
  REQUIRE(full_gpu.algorithms(g64).count == 1);
  const KernelPlan cf = full_gpu.plan(g64, kGpuCudaCore);
  const KernelPlan ch = half_gpu.plan(g64, kGpuCudaCore);
  CHECK(cf.bound == Bound::compute);
  CHECK(ch.bound == Bound::compute);
  CHECK(ch.waves_time().seconds() ==
        doctest::Approx(2.0 * cf.waves_time().seconds()).epsilon(0.03));
}

TEST_CASE("small decode GEMVs split along K to fill the SMs and stay memory-bound") {
  const GpuModel gpu(h100_sxm());
  const ir::Node g = gemm(1, 4096, 11008, DType::float16);
  const KernelPlan p = gpu.plan(g, kGpuTensorCore);
  CHECK(p.tile_m == 64);
  CHECK(p.split_k > 1);
  CHECK(p.ctas <= 132);
  CHECK(p.bound == Bound::memory);
  CHECK(p.bytes_read >= 4096 * 11008 * 2);
  // The weights stream at the device's bandwidth (not a per-CTA share).
  const double stream = 4096.0 * 11008 * 2 / (3.35e12 * gpu_fit::kGemmHbmFraction);
  CHECK(p.waves_time().seconds() < 1.3 * stream);
}
