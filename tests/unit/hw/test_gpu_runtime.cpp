// GPU runtimes (eager, cuda_graph) and the GPU keys that choose them and the fusion rules.
#include <doctest/doctest.h>

#include <string>

#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/gpu/gpu_runtime.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "sim/core/error.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

const std::string kGpuSpec =
    "family: gpu\ngpcs: 1\ntpcs_per_gpc: 66\nsms_per_tpc: 2\nfp32_cores_per_sm: 128\n"
    "clock: 1.98 GHz\ntensor_throughput: {float16: 989.4 TFLOP/s}\nhbm_bandwidth: 3.35 TB/s\n";

GpuSpec spec_of(const std::string& extra) {
  return parse_gpu_spec(ConfigNode::parse(kGpuSpec + extra, "gpu.yaml"));
}

// The keys set but never read, as check_all_read reports them ("" when none).
std::string unread(const std::string& extra) {
  const ConfigNode node = ConfigNode::parse(kGpuSpec + extra, "gpu.yaml");
  ConfigUsage usage;
  parse_gpu_spec(Params(node, gpu_params(), usage));
  try {
    check_all_read(node, gpu_params(), usage, "the gpu model");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string error_of(const std::string& extra) {
  try {
    spec_of(extra);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("runtimes are registered objects with their keys") {
  REQUIRE(gpu_runtimes().size() == 2);
  CHECK(gpu_runtime_named("eager").keys.size() == 2);
  CHECK(gpu_runtime_named("cuda_graph").keys.size() == 1);
  CHECK(error_of("runtime: streams\n").find("streams") != std::string::npos);
}

TEST_CASE("eager: a kernel occupies max(kernel + gap, launch_overhead) of the timeline") {
  const RuntimeTiming t{4e-6, 1e-6};
  const GpuRuntime& eager = gpu_runtime_named("eager");
  // A 1 us kernel is launch-bound: it occupies 4 us.
  CHECK((Time::from_seconds(1e-6) + eager.overhead(Time::from_seconds(1e-6), t)) ==
        Time::from_seconds(4e-6));
  // A 10 us kernel pays only the gap: launches overlap it.
  CHECK(eager.overhead(Time::from_seconds(10e-6), t) == Time::from_seconds(1e-6));
  // cuda_graph: every kernel pays the gap, however short.
  CHECK(gpu_runtime_named("cuda_graph").overhead(Time::from_seconds(1e-6), t) ==
        Time::from_seconds(1e-6));
}

TEST_CASE("the runtime key changes a short kernel's time, not its kernel time") {
  const ir::Node add = test::op("add", {{16, 16}, {16, 16}}, {16, 16}, ir::DType::float16);
  const GpuModel eager(spec_of("runtime: eager\nlaunch_overhead: 4 us\nkernel_gap: 1 us\n"));
  const GpuModel graph(spec_of("runtime: cuda_graph\nkernel_gap: 1 us\n"));
  const KernelPlan e = eager.plan(add, kGpuCudaCore);
  const KernelPlan g = graph.plan(add, kGpuCudaCore);
  CHECK(e.kernel() == g.kernel());
  CHECK(e.total() == Time::from_seconds(4e-6));
  CHECK(g.total() == g.kernel() + Time::from_seconds(1e-6));
  CHECK(eager.estimate(add, kGpuCudaCore).time == e.total());
}

TEST_CASE("a runtime reads only its own keys: launch_overhead under cuda_graph is unread") {
  CHECK(unread("runtime: eager\nlaunch_overhead: 4 us\nkernel_gap: 1 us\n").empty());
  const std::string msg = unread("runtime: cuda_graph\nlaunch_overhead: 4 us\n");
  CHECK(msg.find("launch_overhead") != std::string::npos);
}

TEST_CASE("fusion: all rules by default, none with [], a named subset, unknown names rejected") {
  const GpuModel all(spec_of(""));
  CHECK(all.fuses("norm"));
  CHECK(all.fuses("attention"));
  const GpuModel none(spec_of("fusion: []\n"));
  CHECK_FALSE(none.fuses("norm"));
  CHECK_FALSE(none.fuses("gemm_epilogue"));
  const GpuModel some(spec_of("fusion: [norm, rope]\n"));
  CHECK(some.fuses("rope"));
  CHECK_FALSE(some.fuses("attention"));
  const std::string msg = error_of("fusion: [norm, flash]\n");
  CHECK(msg.find("gpu.yaml:") == 0);
  CHECK(msg.find("flash") != std::string::npos);
  CHECK(msg.find("attention") != std::string::npos);  // the known rules are listed
}
