// Default-profile GPU model on the datasheet H100 SXM5 (configs/hardware/h100_sxm.yaml):
// GEMMs tiled into CTAs and waves, HBM-bound element-wise ops, the SM hierarchy.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/nodes.hpp"

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
  CHECK(p.ctas == 32 * 32);    // 128x128 tiles
  CHECK(p.waves == 8);         // ceil(1024 / 132)
  CHECK(p.total() == c.time);  // estimate() is the plan
  CHECK(c.energy.picojoules() >= 4096.0 * 4096 * 4096 * 0.07);
  // The CUDA-core fallback is an order of magnitude slower.
  CHECK(gpu.estimate(g, kGpuCudaCore).time > c.time * 8);
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
  }
}

TEST_CASE("133 equal tiles on 132 SMs take two waves") {
  const GpuModel gpu(h100_sxm());
  // batch_matmul [B, 128, K] x [B, 128, K]: one 128x128 tile per batch element.
  auto batched = [](int64_t b) {
    return op("matmul", {{b, 128, 8192}, {b, 128, 8192}}, {b, 128, 128}, DType::bfloat16);
  };
  const KernelPlan one = gpu.plan(batched(132), kGpuTensorCore);
  const KernelPlan two = gpu.plan(batched(133), kGpuTensorCore);
  CHECK(one.ctas == 132);
  CHECK(one.waves == 1);
  CHECK(two.ctas == 133);
  CHECK(two.waves == 2);
  CHECK(two.per_wave == one.per_wave);
  const double wave = (one.total() - one.launch).seconds();
  CHECK((two.total() - two.launch).seconds() == doctest::Approx(2.0 * wave));
  // The same holds for a 2-D GEMM of 7 x 19 = 133 tiles against 12 x 11 = 132.
  const KernelPlan g132 = gpu.plan(gemm(12 * 128, 11 * 128, 4096), kGpuTensorCore);
  const KernelPlan g133 = gpu.plan(gemm(7 * 128, 19 * 128, 4096), kGpuTensorCore);
  CHECK(g132.waves == 1);
  CHECK(g133.waves == 2);
  CHECK((g133.total() - g133.launch).seconds() ==
        doctest::Approx(2.0 * (g132.total() - g132.launch).seconds()).epsilon(0.01));
}

TEST_CASE("a 1 GiB element-wise add is HBM-bound at 3.35 TB/s x efficiency") {
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
  const double expected = bytes / (3.35e12 * spec.hbm_efficiency) + spec.launch_overhead_s;
  CHECK(c.time.seconds() == doctest::Approx(expected).epsilon(1e-6));
  CHECK(spec.hbm_efficiency == doctest::Approx(0.9));
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
  const ir::Node g = gemm(4096, 4096, 4096);
  const KernelPlan pf = full_gpu.plan(g, kGpuTensorCore);
  const KernelPlan ph = half_gpu.plan(g, kGpuTensorCore);
  CHECK(ph.sms == 66);
  CHECK(ph.waves == 16);  // ceil(1024 / 66)
  // Tensor figures are per SM (tensor_throughput_sms): half the SMs, half the peak, so a
  // compute-bound GEMM takes as long per wave and twice the waves.
  CHECK(ph.per_wave.seconds() == doctest::Approx(pf.per_wave.seconds()).epsilon(1e-6));
  CHECK((ph.total() - ph.launch).seconds() == doctest::Approx(2 * (pf.total() - pf.launch).seconds()).epsilon(0.02));
  CHECK(ph.total() - ph.launch == ph.per_wave * 16);
  // CUDA cores are counted per SM: half the SMs, half the rate for a compute-bound kernel.
  const ir::Node g64 = gemm(4096, 4096, 4096, DType::float64);  // no FP64 tensor entry
  REQUIRE(full_gpu.algorithms(g64).count == 1);
  const KernelPlan cf = full_gpu.plan(g64, kGpuCudaCore);
  const KernelPlan ch = half_gpu.plan(g64, kGpuCudaCore);
  CHECK(cf.bound == Bound::compute);
  CHECK(ch.bound == Bound::compute);
  CHECK(ch.per_wave == cf.per_wave);
  CHECK((ch.total() - ch.launch).seconds() ==
        doctest::Approx(2.0 * (cf.total() - cf.launch).seconds()));
}

TEST_CASE("small decode GEMVs split along K to fill the SMs and stay memory-bound") {
  const GpuModel gpu(h100_sxm());
  const ir::Node g = gemm(1, 2304, 768);
  const KernelPlan p = gpu.plan(g, kGpuTensorCore);
  CHECK(p.tile_m == 64);
  CHECK(p.split_k == 3);  // 18 tiles, 768 / 256 slices at most
  CHECK(p.ctas == 54);
  CHECK(p.bound == Bound::latency);  // launch dominates a 3.5 MB weight read
  CHECK(p.bytes_read >= 2304 * 768 * 2);
}
