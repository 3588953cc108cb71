#pragma once
// CPU hardware spec, from YAML (family: cpu). Units are strings in the file; SI doubles here.
//   cores: 1                      clock: 3.208 GHz
//   vector_flops_per_cycle: 32    per core, FP32 (default 32: AVX2, two 8-wide FMA pipes)
//   memory_bandwidth: 50 GB/s     whole socket (default 20 GB/s, one DDR4-2666 channel pair)
//   energy_per_cycle: 1 pJ        element-wise energy per cycle (original: 1 pJ)
//   energy_per_mac: 0.1 pJ        matrix-product energy per MAC (original: 0.1 pJ)
//   static_power: 0 W             per core, idle or busy (default 0)
//   gemm_efficiency: 0.7          fraction of vector peak matrix products reach (default 0.7)
//   cache: 32 MiB                 last-level cache; splits fits into regimes (default 0 = none)
//   tdp: 350 W                    package power limit, informational (default 0 = unknown)
//   fits:                         optional calibrated linear models, time = a * work + b
//     dense: {per_work: 6.85e-11 s, offset: 8.26e-7 s, work: macs, points: 49, r2: 0.99,
//             beyond_cache: {per_work: 3.55e-10 s, offset: -7.06 ms, points: 12, r2: 0.96}}
// A fit's optional `beyond_cache` regime applies when the op's largest input exceeds `cache`
// (weights streamed from DRAM: the original's separate vocabulary-projection fit);
// `beyond_cache: none` drops a regime inherited through `from:`.
#include <map>
#include <string>
#include <vector>

#include "sim/core/config.hpp"

namespace lightcode::hw {

struct LinearFit {
  enum class Work { elements, macs };
  double per_work_s = 0.0;  // seconds per element or per MAC
  double offset_s = 0.0;    // seconds per call
  Work work = Work::elements;
  int points = 0;           // measurements behind the fit (informational)
  double r2 = 0.0;          // coefficient of determination (informational)
  // Second regime, for ops whose largest input exceeds CpuSpec::cache_bytes; used only when
  // beyond_cache_points > 0.
  double beyond_cache_per_work_s = 0.0;
  double beyond_cache_offset_s = 0.0;
  int beyond_cache_points = 0;
  double beyond_cache_r2 = 0.0;
};

struct CpuSpec {
  std::string name;
  int cores = 1;
  double clock_hz = 0.0;
  double vector_flops_per_cycle = 32.0;
  double memory_bandwidth = 20e9;
  double energy_per_cycle_j = 1e-12;
  double energy_per_mac_j = 0.1e-12;
  double static_power_w = 0.0;
  double gemm_efficiency = 0.7;
  double cache_bytes = 0.0;  // 0 = unknown: fits have one regime
  double tdp_w = 0.0;        // informational
  std::map<std::string, LinearFit> fits;  // by op kind name ("dense", "add", ...)
};

CpuSpec parse_cpu_spec(const ConfigNode& node);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> cpu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
