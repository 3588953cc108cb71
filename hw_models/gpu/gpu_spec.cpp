#include "hw_models/gpu/gpu_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "hw_models/gpu/gpu_power_fit.hpp"
#include "sim/ir/fusion.hpp"

namespace lightcode::hw {
namespace {

constexpr double kSeedEnergyPerMacJ = 0.07e-12;  // the LightCode overview's figure

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
          Param::quantity("tdp", Dimension::power)
              .positive()
              .doc("the datasheet's maximum board power: turns on the power model "
                   "(hw_models/gpu/gpu_power_fit.hpp): the shared energy shares scaled into this "
                   "GPU's energies per FLOP, active power, and the default power limit. Absent: "
                   "the energies are the keys' (energy_per_mac the seed's 0.07 pJ, HBM 0), no "
                   "active power, no limit"),
          Param::quantity("power_limit", Dimension::power)
              .positive()
              .doc("board power a kernel may draw (default: tdp): a kernel whose modelled power "
                   "is above it runs at a lower clock, its time stretched until its power is the "
                   "limit (`nvidia-smi -pl`; a study may set 300-700 W on an H100)"),
          Param::quantity("active_power", Dimension::power)
              .doc("power beyond idle while a kernel runs, stalled or not (default: the fitted "
                   "share of tdp, gpu_power_fit.hpp; 0 without tdp)"),
          Param::quantity("energy_per_mac", Dimension::energy)
              .doc("energy per tensor-core MAC, every dtype (default: per dtype, 2 x the fitted "
                   "tensor share x tdp / tensor_throughput of the dtype; without tdp the seed's "
                   "0.07 pJ)"),
          Param::quantity("energy_per_flop", Dimension::energy)
              .doc("energy per CUDA-core FLOP or element-wise lane op (default: the fitted CUDA "
                   "share x tdp / the FP32 FMA peak; without tdp energy_per_mac / 2)"),
          Param::quantity("hbm_energy_per_bit", Dimension::energy_per_bit)
              .doc("HBM energy per bit a kernel moves: array, PHY and the on-chip path (default: "
                   "the fitted value of gpu_power_fit.hpp; without tdp 0)"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("idle power (a CUDA context resident, no kernel running), charged over the "
                   "makespan"),
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
  s.static_power_w = p.quantity("static_power");
  s.tdp_w = p.quantity_if("tdp").value_or(0.0);
  const bool power_model = s.tdp_w > 0.0;
  s.active_power_w = p.quantity_if("active_power").value_or(power_model ? gpu_power::kActiveShare * s.tdp_w : 0.0);
  s.power_limit_w = p.quantity_if("power_limit").value_or(s.tdp_w);
  if (s.power_limit_w > 0.0 && s.power_limit_w <= s.static_power_w + s.active_power_w) {
    p.node().fail("power_limit (" + format_quantity(s.power_limit_w, Dimension::power) +
                  ") must be above static_power + active_power (" +
                  format_quantity(s.static_power_w + s.active_power_w, Dimension::power) +
                  "): no kernel could run");
  }
  // Without a TDP: the seed's energy per MAC, a CUDA-core FLOP half a MAC (a MAC is two FLOPs).
  s.energy_per_mac_j = p.quantity_if("energy_per_mac").value_or(power_model ? 0.0 : kSeedEnergyPerMacJ);
  const double fma_peak = 2.0 * s.fp32_cores_per_sm * s.sms() * s.clock_hz;
  s.energy_per_flop_j = p.quantity_if("energy_per_flop")
                            .value_or(power_model ? gpu_power::kCudaShare * s.tdp_w / fma_peak
                                                  : s.energy_per_mac_j / 2.0);
  s.energy_per_hbm_byte_j =
      kBitsPerByte * p.quantity_if("hbm_energy_per_bit").value_or(power_model ? gpu_power::kHbmEnergyPerBitJ : 0.0);
  return s;
}

double GpuSpec::tensor_mac_energy_j(double rate) const {
  return energy_per_mac_j > 0.0 ? energy_per_mac_j : 2.0 * gpu_power::kTensorShare * tdp_w / rate;
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
  const auto watts = [](double w) { return format_quantity(w, Dimension::power); };
  out.push_back("power          " +
                (s.tdp_w > 0.0 ? "tdp " + watts(s.tdp_w) + ", limit " + watts(s.power_limit_w) + ", "
                               : std::string("no power model (no tdp), ")) +
                "idle " + watts(s.static_power_w) + ", active " + watts(s.active_power_w));
  std::string energy = "energy         ";
  for (const auto& [dtype, rate] : s.tensor_flops) {
    energy += format_quantity(s.tensor_mac_energy_j(rate), Dimension::energy) + " per " + std::string(ir::dtype_name(dtype)) + " MAC, ";
  }
  out.push_back(energy + format_quantity(s.energy_per_flop_j, Dimension::energy) + " per CUDA-core FLOP, " +
                format_quantity(s.energy_per_hbm_byte_j / kBitsPerByte, Dimension::energy_per_bit) + " HBM");
  return out;
}

}  // namespace lightcode::hw
