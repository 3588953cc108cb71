#include "hw_models/gpu/gpu_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "sim/ir/fusion.hpp"

namespace lightcode::hw {
namespace {

constexpr double kBitsPerByte = 8.0;

// Fusion rules a GPU runs when `fusion:` is absent: all of them. The names are checked
// against the registered rules.
std::vector<std::string> fusion_rule_names() {
  std::vector<std::string> names;
  for (const ir::FusionRule& r : ir::fusion_rules()) names.emplace_back(r.name);
  return names;
}

std::string runtime_choices_doc() {
  std::string doc;
  for (const GpuRuntime& r : gpu_runtimes()) {
    doc += (doc.empty() ? "" : "; ") + std::string(r.name) + ": " + std::string(r.description);
  }
  return doc;
}

std::vector<std::string> runtime_names() {
  std::vector<std::string> names;
  for (const GpuRuntime& r : gpu_runtimes()) names.emplace_back(r.name);
  return names;
}

bool reads(const GpuRuntime& r, std::string_view key) {
  for (std::string_view k : r.keys) {
    if (k == key) return true;
  }
  return false;
}

}  // namespace

const ParamTable& gpu_params() {
  static const ParamTable table{
      "gpu",
      "An H100-like GPU (`family: gpu`): GPCs > TPCs > SMs; kernels tiled into CTAs that run in "
      "waves on the SMs, "
      "tensor cores for products of a dtype with a tensor rate, CUDA cores otherwise, HBM traffic "
      "per kernel.",
      {
          Param::meta("family").doc("`gpu`"),
          Param::meta("name").doc("display name"),
          Param::count("gpcs", limits::kUnitCount).required().doc("graphics processing clusters"),
          Param::count("tpcs_per_gpc", limits::kUnitCount)
              .required()
              .doc("texture processing clusters per GPC"),
          Param::count("sms_per_tpc", limits::kUnitCount)
              .required()
              .doc("streaming multiprocessors per TPC"),
          Param::count("fp32_cores_per_sm", limits::kUnitCount)
              .required()
              .doc("FP32 CUDA cores per SM"),
          Param::quantity("clock", Dimension::frequency).positive().required().doc("SM clock"),
          Param::named("tensor_throughput", nullptr)
              .doc("dtype -> dense tensor-core FLOP/s of the whole device (float32 = TF32 math)"),
          Param::count("tensor_throughput_sms", limits::kUnitCount)
              .doc("SMs the tensor figures are quoted for (default: all SMs); the per-SM rate is "
                   "kept, so fewer SMs mean less peak"),
          Param::quantity("hbm_bandwidth", Dimension::bandwidth)
              .positive()
              .required()
              .doc("HBM bandwidth"),
          Param::count("sfus_per_sm", limits::kUnitCount)
              .fallback("16")
              .doc("special-function units per SM (exp, rsqrt; 16 on Ampere and Hopper, per "
                   "NVIDIA's A100 and H100 whitepapers)"),
          Param::choice("runtime", runtime_names()).fallback("eager").doc(runtime_choices_doc()),
          Param::quantity("launch_overhead", Dimension::duration)
              .fallback("0 s")
              .doc("eager runtime: host time to issue one kernel launch (overlaps GPU work)"),
          Param::quantity("kernel_gap", Dimension::duration)
              .fallback("0 s")
              .doc("device time between consecutive kernels (eager and cuda_graph)"),
          Param::list("fusion").doc(
              "fusion rules whose groups this GPU runs as one kernel (default: all rules; "
              "`[]`: one kernel per op)"),
          Param::quantity("energy_per_mac", Dimension::energy)
              .fallback("0.07 pJ")
              .doc("energy per tensor-core MAC (the seed's 0.07 pJ)"),
          Param::quantity("energy_per_flop", Dimension::energy)
              .doc(
                  "energy per CUDA-core FLOP (default: energy_per_mac / 2, a MAC being two FLOPs)"),
          Param::quantity("hbm_energy_per_bit", Dimension::energy_per_bit)
              .fallback("0 pJ/bit")
              .doc("HBM access energy per bit moved by a kernel"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("idle or busy, charged over the makespan"),
      }};
  return table;
}

GpuSpec parse_gpu_spec(const Params& p) {
  GpuSpec s;
  s.name = p.text_if("name").value_or("");
  s.gpcs = static_cast<int>(p.count("gpcs"));
  s.tpcs_per_gpc = static_cast<int>(p.count("tpcs_per_gpc"));
  s.sms_per_tpc = static_cast<int>(p.count("sms_per_tpc"));
  if (static_cast<int64_t>(s.gpcs) * s.tpcs_per_gpc * s.sms_per_tpc > limits::kUnitCount.value) {
    p.node().fail("gpcs * tpcs_per_gpc * sms_per_tpc is above " +
                  std::to_string(limits::kUnitCount.value) + " SMs (" +
                  std::string(limits::kUnitCount.name) + ")");
  }
  s.fp32_cores_per_sm = static_cast<int>(p.count("fp32_cores_per_sm"));
  s.clock_hz = p.quantity("clock");
  for (const auto& [key, rate] : p.named_nodes("tensor_throughput")) {
    const auto dtype = ir::parse_dtype(key);
    if (!dtype)
      rate.fail("unknown dtype '" + key + "' (e.g. float32, bfloat16, float16, float8, int8)");
    const double v = rate.as_quantity(Dimension::flop_rate);
    if (!(v > 0.0)) rate.fail("must be positive, got '" + rate.as_string() + "'");
    s.tensor_flops[*dtype] = v;
  }
  // The SM count the datasheet figures refer to, so that a config with fewer or more SMs
  // (an override, a sweep) scales the device's tensor rate with them.
  s.tensor_throughput_sms = static_cast<int>(p.count_if("tensor_throughput_sms").value_or(s.sms()));
  s.hbm_bandwidth = p.quantity("hbm_bandwidth");
  s.sfus_per_sm = static_cast<int>(p.count("sfus_per_sm"));
  s.runtime = &gpu_runtime_named(p.choice("runtime"));
  // A runtime reads only its own keys, so that e.g. a launch_overhead under cuda_graph is
  // reported as set but unread.
  if (reads(*s.runtime, "launch_overhead"))
    s.timing.launch_overhead_s = p.quantity("launch_overhead");
  if (reads(*s.runtime, "kernel_gap")) s.timing.kernel_gap_s = p.quantity("kernel_gap");
  if (p.has("fusion")) {
    const std::vector<std::string> known = fusion_rule_names();
    s.fuse_all = false;
    for (const ConfigNode& item : p.list("fusion")) {
      const std::string name = item.as_string();
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        item.fail("unknown fusion rule '" + name + "' (known: " + list + ")");
      }
      if (std::find(s.fusion.begin(), s.fusion.end(), name) == s.fusion.end())
        s.fusion.push_back(name);
    }
  }
  s.energy_per_mac_j = p.quantity("energy_per_mac");
  // A MAC is two FLOPs: without a separate figure a CUDA-core FLOP costs half a MAC.
  s.energy_per_flop_j = p.quantity_if("energy_per_flop").value_or(s.energy_per_mac_j / 2.0);
  s.energy_per_hbm_byte_j = kBitsPerByte * p.quantity("hbm_energy_per_bit");
  s.static_power_w = p.quantity("static_power");
  return s;
}

GpuSpec parse_gpu_spec(const ConfigNode& node) {
  ConfigUsage usage;
  return parse_gpu_spec(Params(node, gpu_params(), usage));
}

std::vector<std::string> gpu_spec_summary(const ConfigNode& node) {
  const GpuSpec s = parse_gpu_spec(node);
  std::vector<std::string> out;
  out.push_back("SMs            " + std::to_string(s.sms()) + " (" + std::to_string(s.gpcs) +
                " GPCs x " + std::to_string(s.tpcs_per_gpc) + " TPCs x " +
                std::to_string(s.sms_per_tpc) + " SMs)");
  out.push_back(
      "CUDA FP32      " +
      format_quantity(2.0 * s.sms() * s.fp32_cores_per_sm * s.clock_hz, Dimension::flop_rate) +
      " (FMA)");
  for (const auto& [dtype, rate] : s.tensor_flops) {
    std::string name(ir::dtype_name(dtype));
    name.resize(std::max<size_t>(name.size(), 9), ' ');
    out.push_back("tensor " + name + format_quantity(rate, Dimension::flop_rate));
  }
  out.push_back("HBM            " + format_quantity(s.hbm_bandwidth, Dimension::bandwidth));
  std::string runtime = "runtime        " + std::string(s.runtime->name) + " (";
  if (s.timing.launch_overhead_s > 0.0) {
    runtime += "launch " + format_quantity(s.timing.launch_overhead_s, Dimension::duration) + ", ";
  }
  out.push_back(runtime + "kernel gap " +
                format_quantity(s.timing.kernel_gap_s, Dimension::duration) + ")");
  std::string fused;
  for (const std::string& r : s.fuse_all ? fusion_rule_names() : s.fusion)
    fused += (fused.empty() ? "" : ", ") + r;
  out.push_back("fused kernels  " +
                (fused.empty() ? std::string("none (one kernel per op)") : fused));
  return out;
}

}  // namespace lightcode::hw
