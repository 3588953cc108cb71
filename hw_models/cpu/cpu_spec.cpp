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

void check_family(const ConfigNode& node, const char* family) {
  if (!node.has("family")) return;
  const std::string f = node.string("family");
  if (f != family)
    node.at("family").fail("expected family '" + std::string(family) + "', got '" + f + "'");
}

// A signed duration: calibrated offsets may be negative (a line fitted to large ops only).
double duration(const ConfigNode& node, std::string_view key) {
  return node.at(key).as_quantity(Dimension::duration);
}

double fraction(const ConfigNode& node, std::string_view key, double fallback) {
  if (!node.has(key)) return fallback;
  const double v = node.positive_double(key);
  if (v > 1.0) node.at(key).fail("must be a fraction in (0, 1], got " + node.string(key));
  return v;
}

LinearFit parse_fit(const ConfigNode& n, bool has_cache) {
  n.allow_only({"per_work", "offset", "work", "points", "r2", "beyond_cache"});
  LinearFit f;
  f.per_work_s = n.non_negative_quantity("per_work", Dimension::duration);
  f.offset_s = duration(n, "offset");
  if (n.has("work")) {
    const std::string w = n.string("work");
    if (w == "macs") {
      f.work = LinearFit::Work::macs;
    } else if (w != "elements") {
      n.at("work").fail("expected 'macs' or 'elements', got '" + w + "'");
    }
  }
  if (n.has("points")) f.points = static_cast<int>(n.non_negative_int("points"));
  if (n.has("r2")) f.r2 = n.at("r2").as_double();
  const auto b = n.find("beyond_cache");
  // `none` undoes a regime inherited through `from:` (maps merge key by key).
  if (b && !(b->is_scalar() && b->as_string() == "none")) {
    if (!has_cache) b->fail("a beyond_cache regime needs the CPU's `cache:` size");
    b->allow_only({"per_work", "offset", "points", "r2"});
    f.beyond_cache_per_work_s = b->non_negative_quantity("per_work", Dimension::duration);
    f.beyond_cache_offset_s = duration(*b, "offset");
    f.beyond_cache_points = b->has("points") ? static_cast<int>(b->positive_int("points")) : 1;
    if (b->has("r2")) f.beyond_cache_r2 = b->at("r2").as_double();
  }
  return f;
}

}  // namespace

CpuSpec parse_cpu_spec(const ConfigNode& node) {
  node.allow_only({"family", "name", "cores", "clock", "vector_flops_per_cycle", "memory_bandwidth",
                   "energy_per_cycle", "energy_per_mac", "static_power", "gemm_efficiency", "cache",
                   "tdp", "fits"});
  check_family(node, "cpu");
  CpuSpec s;
  if (node.has("name")) s.name = node.string("name");
  s.cores = static_cast<int>(node.count("cores", limits::kUnitCount));
  s.clock_hz = node.positive_quantity("clock", Dimension::frequency);
  if (node.has("vector_flops_per_cycle"))
    s.vector_flops_per_cycle = node.positive_double("vector_flops_per_cycle");
  if (node.has("memory_bandwidth"))
    s.memory_bandwidth = node.positive_quantity("memory_bandwidth", Dimension::bandwidth);
  s.energy_per_cycle_j =
      node.non_negative_quantity_or("energy_per_cycle", Dimension::energy, s.energy_per_cycle_j);
  s.energy_per_mac_j =
      node.non_negative_quantity_or("energy_per_mac", Dimension::energy, s.energy_per_mac_j);
  s.static_power_w =
      node.non_negative_quantity_or("static_power", Dimension::power, s.static_power_w);
  s.gemm_efficiency = fraction(node, "gemm_efficiency", s.gemm_efficiency);
  s.cache_bytes = node.non_negative_quantity_or("cache", Dimension::data, s.cache_bytes);
  s.tdp_w = node.non_negative_quantity_or("tdp", Dimension::power, s.tdp_w);
  if (const auto fits = node.find("fits")) {
    if (!fits->is_map()) fits->fail("expected a mapping of op kind -> {per_work, offset, work}");
    // Any kind name is accepted: fused or exotic graphs carry kinds outside OpKind.
    for (const std::string& kind : fits->keys())
      s.fits[kind] = parse_fit(fits->at(kind), s.cache_bytes > 0.0);
  }
  return s;
}

std::vector<std::string> cpu_spec_summary(const ConfigNode& node) {
  const CpuSpec s = parse_cpu_spec(node);
  std::vector<std::string> out;
  out.push_back("peak FP32      " + format_quantity(s.cores * s.clock_hz * s.vector_flops_per_cycle, Dimension::flop_rate) +
                " (" + std::to_string(s.cores) + " cores x " + format_quantity(s.clock_hz, Dimension::frequency) + " x " +
                number(s.vector_flops_per_cycle) + " FLOP/cycle)");
  out.push_back("memory         " + format_quantity(s.memory_bandwidth, Dimension::bandwidth));
  for (const auto& [kind, fit] : s.fits) {
    std::string label = "fit " + kind;
    label.resize(std::max<size_t>(label.size(), 15), ' ');
    out.push_back(label + number(fit.per_work_s) + " s/" + (fit.work == LinearFit::Work::macs ? "MAC" : "element") +
                  " + " + number(fit.offset_s) + " s");
  }
  return out;
}

}  // namespace lightcode::hw
