#include "hw_models/cpu/cpu_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace lightcode::hw {
namespace {

// As an ostream prints a double: "%g".
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

const ParamTable& beyond_cache_params() {
  static const ParamTable table{
      "cpu.fit.beyond_cache",
      "The second regime of a fit, for ops whose largest input exceeds the CPU's `cache`.",
      {
          Param::quantity("per_work", Dimension::duration)
              .required()
              .doc("seconds per unit of work"),
          Param::quantity("offset", Dimension::duration)
              .signed_()
              .required()
              .doc("seconds per call (may be negative: a line fitted to large ops)"),
          Param::meta("points").doc("measurements behind the fit (informational)"),
          Param::meta("r2").doc("coefficient of determination of the fit (informational)"),
      }};
  return table;
}

}  // namespace

const ParamTable& cpu_fit_params() {
  static const ParamTable table{
      "cpu.fit",
      "A calibrated linear model of one op kind (`lightcode calibrate` writes them): time = "
      "per_work x work + "
      "offset. Any kind name is accepted (fused or exotic graphs carry kinds of their own).",
      {
          Param::quantity("per_work", Dimension::duration)
              .required()
              .doc("seconds per element or per MAC"),
          Param::quantity("offset", Dimension::duration)
              .signed_()
              .required()
              .doc("seconds per call (may be negative)"),
          Param::choice("work", {"elements", "macs"})
              .fallback("elements")
              .doc("what `per_work` counts: output elements or MACs"),
          Param::meta("points").doc("measurements behind the fit (informational)"),
          Param::meta("r2").doc("coefficient of determination of the fit (informational)"),
          Param::table("beyond_cache", beyond_cache_params())
              .doc("second regime for ops whose largest input exceeds `cache`; `none` drops an "
                   "inherited one"),
      }};
  return table;
}

const ParamTable& cpu_params() {
  static const ParamTable table{
      "cpu",
      "CPU cores (`family: cpu`): per-op cycle models (SIMD lanes or memory bandwidth, whichever "
      "binds), "
      "GEMMs at a fraction of vector peak, or calibrated linear fits per op kind.",
      {
          Param::meta("family").doc("`cpu`"),
          Param::meta("name").doc("display name"),
          Param::count("cores", limits::kUnitCount)
              .required()
              .doc("cores; each runs one task at a time"),
          Param::quantity("clock", Dimension::frequency).positive().required().doc("core clock"),
          Param::real("vector_flops_per_cycle")
              .positive()
              .fallback("32")
              .doc("FP32 FLOP per cycle per core (32: AVX2, two 8-wide FMA pipes)"),
          Param::quantity("memory_bandwidth", Dimension::bandwidth)
              .positive()
              .fallback("20 GB/s")
              .doc("whole socket; each core gets a 1/cores share (20 GB/s: one DDR4-2666 channel "
                   "pair)"),
          Param::quantity("energy_per_cycle", Dimension::energy)
              .fallback("1 pJ")
              .doc("energy per busy core cycle of element-wise work (the original's 1 pJ)"),
          Param::quantity("energy_per_mac", Dimension::energy)
              .fallback("0.1 pJ")
              .doc("energy per matrix-product MAC (the original's 0.1 pJ)"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("per core, idle or busy, charged over the makespan"),
          Param::fraction("gemm_efficiency")
              .fallback("0.7")
              .doc("fraction of vector peak that matrix products reach"),
          Param::quantity("cache", Dimension::data)
              .fallback("0 B")
              .doc("last-level cache; splits fits into two regimes (0: one regime)"),
          Param::named("fits", &cpu_fit_params())
              .doc("op kind -> calibrated linear fit, used instead of the cycle model"),
      }};
  return table;
}

LinearFit parse_fit(const Params& n, bool has_cache) {
  LinearFit f;
  f.per_work_s = n.quantity("per_work");
  f.offset_s = n.quantity("offset");
  f.work = n.choice("work") == "macs" ? LinearFit::Work::macs : LinearFit::Work::elements;
  if (n.has("points")) f.points = static_cast<int>(n.at("points").as_int());
  if (n.has("r2")) f.r2 = n.at("r2").as_double();
  if (!n.has("beyond_cache")) return f;
  // `none` undoes a regime inherited through `from:` (maps merge key by key).
  const ConfigNode b = n.at("beyond_cache");
  if (b.is_scalar() && b.as_string() == "none") {
    n.mark("beyond_cache");
    return f;
  }
  if (!has_cache) b.fail("a beyond_cache regime needs the CPU's `cache:` size");
  const Params regime = *n.table_if("beyond_cache");
  f.beyond_cache_per_work_s = regime.quantity("per_work");
  f.beyond_cache_offset_s = regime.quantity("offset");
  f.beyond_cache_points =
      regime.has("points") ? static_cast<int>(regime.node().positive_int("points")) : 1;
  if (regime.has("r2")) f.beyond_cache_r2 = regime.at("r2").as_double();
  return f;
}

CpuSpec parse_cpu_spec(const Params& p, bool for_display) {
  CpuSpec s;
  s.name = p.text_if("name").value_or("");
  s.cores = static_cast<int>(p.count("cores"));
  s.clock_hz = p.quantity("clock");
  s.vector_flops_per_cycle = p.real("vector_flops_per_cycle");
  s.memory_bandwidth = p.quantity("memory_bandwidth");
  s.energy_per_cycle_j = p.quantity("energy_per_cycle");
  s.energy_per_mac_j = p.quantity("energy_per_mac");
  s.static_power_w = p.quantity("static_power");
  s.gemm_efficiency = p.fraction("gemm_efficiency");
  s.cache_bytes = p.quantity("cache");
  for (const auto& [kind, fit] : p.named("fits"))
    s.fits[kind] = parse_fit(fit, for_display || s.cache_bytes > 0.0);
  return s;
}

CpuSpec parse_cpu_spec(const ConfigNode& node) {
  ConfigUsage usage;
  return parse_cpu_spec(Params(node, cpu_params(), usage));
}

std::vector<std::string> cpu_spec_summary(const ConfigNode& node) {
  ConfigUsage usage;
  const CpuSpec s = parse_cpu_spec(Params(node, cpu_params(), usage), /*for_display=*/true);
  std::vector<std::string> out;
  out.push_back(
      "peak FP32      " +
      format_quantity(s.cores * s.clock_hz * s.vector_flops_per_cycle, Dimension::flop_rate) +
      " (" + std::to_string(s.cores) + " cores x " +
      format_quantity(s.clock_hz, Dimension::frequency) + " x " + number(s.vector_flops_per_cycle) +
      " FLOP/cycle)");
  out.push_back("memory         " + format_quantity(s.memory_bandwidth, Dimension::bandwidth));
  for (const auto& [kind, fit] : s.fits) {
    std::string label = "fit " + kind;
    label.resize(std::max<size_t>(label.size(), 15), ' ');
    out.push_back(label + number(fit.per_work_s) + " s/" +
                  (fit.work == LinearFit::Work::macs ? "MAC" : "element") + " + " +
                  number(fit.offset_s) + " s");
  }
  return out;
}

}  // namespace lightcode::hw
