#pragma once
// GPU runtimes: how the host issues kernels and what that costs on the GPU's timeline. A
// runtime is a registered object (gpu_runtimes(): name, description, the GPU keys it reads);
// the GPU key `runtime:` picks one. Each answers one question: given a kernel's own time,
// how long is the GPU's timeline occupied by it, launch included?
//   eager       the host issues one launch per `launch_overhead` while earlier kernels run
//               (launches overlap GPU work), so a kernel occupies the timeline
//               max(kernel + kernel_gap, launch_overhead): short kernels are launch-bound,
//               long ones pay only the gap. An approximation: it assumes the host is never
//               ahead by more than one kernel's worth (no queue of issued work builds up
//               behind a long kernel to hide the launches of later short ones).
//   cuda_graph  the whole graph is launched once; each kernel pays kernel_gap (the
//               dependency resolution between consecutive kernels on the device).
// Times are integer picoseconds; parameters are seconds.
#include <string_view>
#include <vector>

#include "sim/core/quantity.hpp"

namespace lightcode::hw {

struct RuntimeTiming {
  double launch_overhead_s = 0.0;  // host time per launch (eager)
  double kernel_gap_s = 0.0;       // device time between dependent kernels
};

struct GpuRuntime {
  std::string_view name;
  std::string_view description;
  std::vector<std::string_view> keys;  // the GPU keys it reads (others it leaves unread)
  // The time the GPU's timeline spends on a kernel beyond the kernel itself.
  Time (*overhead)(Time kernel, const RuntimeTiming& timing);
};

const std::vector<GpuRuntime>& gpu_runtimes();
// Throws lightcode::Error naming the unknown runtime and listing the known ones.
const GpuRuntime& gpu_runtime_named(std::string_view name);

}  // namespace lightcode::hw
