#include "hw_models/gpu/gpu_runtime.hpp"

#include <string>

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"

namespace lightcode::hw {
namespace {

Time eager_overhead(Time kernel, const RuntimeTiming& t) {
  const Time gap = Time::from_seconds(t.kernel_gap_s);
  const Time launch = Time::from_seconds(t.launch_overhead_s);
  const Time busy = kernel.plus(gap, "a kernel and its gap");
  return busy >= launch ? gap : launch - kernel;
}

Time graph_overhead(Time, const RuntimeTiming& t) {
  return Time::from_seconds(t.kernel_gap_s);
}

}  // namespace

const std::vector<GpuRuntime>& gpu_runtimes() {
  static const std::vector<GpuRuntime> runtimes{
      {"eager",
       "one host launch per kernel, overlapping GPU work: a kernel occupies the GPU for "
       "max(kernel + kernel_gap, launch_overhead)",
       {"launch_overhead", "kernel_gap"},
       eager_overhead},
      {"cuda_graph",
       "one graph launch for the whole iteration: each kernel adds kernel_gap",
       {"kernel_gap"},
       graph_overhead},
  };
  return runtimes;
}

const GpuRuntime& gpu_runtime_named(std::string_view name) {
  return named_in(gpu_runtimes(), name, "GPU runtime");
}

}  // namespace lightcode::hw
