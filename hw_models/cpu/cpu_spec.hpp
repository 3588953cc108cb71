#pragma once
// CPU hardware spec, from YAML (family: cpu). Every key is declared once in cpu_params()
// (cpu_spec.cpp): type and unit, default, meaning; `lightcode hw show` and docs/CONFIG.md print
// that table. Units are strings in the file; SI doubles here.
//   fits:   optional calibrated linear models per op kind, time = per_work * work + offset,
//     dense: {per_work: 6.85e-11 s, offset: 8.26e-7 s, work: macs, points: 49, r2: 0.99,
//             beyond_cache: {per_work: 3.55e-10 s, offset: -7.06 ms, points: 12, r2: 0.96}}
// A fit's optional `beyond_cache` regime applies when the op's largest input exceeds `cache`
// (weights streamed from DRAM: the original's separate vocabulary-projection fit);
// `beyond_cache: none` drops a regime inherited through `from:`.
#include <map>
#include <string>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

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
  std::map<std::string, LinearFit> fits;  // by op kind name ("dense", "add", ...)
};

// The keys of a `family: cpu` file, and of one entry of its `fits:`.
const ParamTable& cpu_params();
const ParamTable& cpu_fit_params();

// Reads every key (the default CPU model uses them all). A fit's beyond_cache regime needs
// `cache:` (the default model splits by it) unless `for_display` (`hw show` of any profile).
CpuSpec parse_cpu_spec(const Params& params, bool for_display = false);
CpuSpec parse_cpu_spec(const ConfigNode& node);  // with a usage record of its own
// One fit entry; `beyond_cache` is read when present (`none`: no second regime).
LinearFit parse_fit(const Params& fit, bool has_cache);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> cpu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
