#include "hw_models/gpu/gpu_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace lightcode::hw {
namespace {

// Fractions of peak reached when the `efficiency:` key leaves them out:
//  tensor 0.8: cuBLAS BF16 GEMMs on H100 SXM measure ~700-800 TFLOP/s of the 989 TFLOP/s
//     dense peak for large square problems (NVIDIA, "New cuBLAS 12.0 Features and Matrix
//     Multiplication Performance on NVIDIA Hopper GPUs", developer blog, 2023).
//  cuda 0.8: the same fraction for FP32 FMA streams; element-wise kernels are HBM-bound
//     anyway, so this rarely decides a time.
//  hbm 0.9: STREAM-like copy kernels reach ~90 % of HBM3's 3.35 TB/s on H100 SXM
//     (published microbenchmarks measure ~3.0 TB/s).
constexpr double kDefaultTensorEfficiency = 0.8;
constexpr double kDefaultCudaEfficiency = 0.8;
constexpr double kDefaultHbmEfficiency = 0.9;
constexpr double kBitsPerByte = 8.0;

int count(const ConfigNode& node, std::string_view key) {
  return static_cast<int>(node.count(key, limits::kUnitCount));
}

double fraction(const ConfigNode& node, std::string_view key, double fallback) {
  if (!node.has(key)) return fallback;
  const double v = node.positive_double(key);
  if (v > 1.0) node.at(key).fail("must be a fraction in (0, 1], got " + node.string(key));
  return v;
}

}  // namespace

GpuSpec parse_gpu_spec(const ConfigNode& node) {
  node.allow_only({"family", "name", "gpcs", "tpcs_per_gpc", "sms_per_tpc", "fp32_cores_per_sm",
                   "tensor_cores_per_sm", "clock", "tensor_throughput", "tensor_throughput_sms",
                   "hbm_bandwidth",
                   "hbm_capacity", "l2", "launch_overhead", "efficiency", "energy_per_mac",
                   "energy_per_flop", "hbm_energy_per_bit", "static_power", "tdp"});
  if (node.has("family") && node.string("family") != "gpu") {
    node.at("family").fail("expected family 'gpu', got '" + node.string("family") + "'");
  }
  GpuSpec s;
  if (node.has("name")) s.name = node.string("name");
  s.gpcs = count(node, "gpcs");
  s.tpcs_per_gpc = count(node, "tpcs_per_gpc");
  s.sms_per_tpc = count(node, "sms_per_tpc");
  if (static_cast<int64_t>(s.gpcs) * s.tpcs_per_gpc * s.sms_per_tpc > limits::kUnitCount.value) {
    node.fail("gpcs * tpcs_per_gpc * sms_per_tpc is above " + std::to_string(limits::kUnitCount.value) + " SMs (" +
              std::string(limits::kUnitCount.name) + ")");
  }
  s.fp32_cores_per_sm = count(node, "fp32_cores_per_sm");
  s.tensor_cores_per_sm = node.has("tensor_cores_per_sm")
                              ? static_cast<int>(node.non_negative_int("tensor_cores_per_sm"))
                              : 0;
  s.clock_hz = node.positive_quantity("clock", Dimension::frequency);
  if (const auto tt = node.find("tensor_throughput")) {
    if (!tt->is_map())
      tt->fail("expected a mapping of dtype -> FLOP/s, e.g. {bfloat16: 989 TFLOP/s}");
    for (const std::string& key : tt->keys()) {
      const auto dtype = ir::parse_dtype(key);
      if (!dtype)
        tt->at(key).fail("unknown dtype '" + key +
                         "' (e.g. float32, bfloat16, float16, float8, int8)");
      s.tensor_flops[*dtype] = tt->positive_quantity(key, Dimension::flop_rate);
    }
  }
  if (!s.tensor_flops.empty() && s.tensor_cores_per_sm == 0) {
    node.at("tensor_throughput").fail("tensor throughput given but tensor_cores_per_sm is 0");
  }
  // The SM count the datasheet figures refer to, so that a config with fewer or more SMs
  // (an override, a sweep) scales the device's tensor rate with them.
  s.tensor_throughput_sms = node.has("tensor_throughput_sms")
                                ? static_cast<int>(node.positive_int("tensor_throughput_sms"))
                                : s.sms();
  s.hbm_bandwidth = node.positive_quantity("hbm_bandwidth", Dimension::bandwidth);
  s.hbm_capacity = node.non_negative_quantity_or("hbm_capacity", Dimension::data, 0.0);
  s.l2_bytes = node.non_negative_quantity_or("l2", Dimension::data, 0.0);
  s.launch_overhead_s = node.non_negative_quantity_or("launch_overhead", Dimension::duration, 0.0);
  s.tensor_efficiency = kDefaultTensorEfficiency;
  s.cuda_efficiency = kDefaultCudaEfficiency;
  s.hbm_efficiency = kDefaultHbmEfficiency;
  if (const auto eff = node.find("efficiency")) {
    eff->allow_only({"tensor", "cuda", "hbm"});
    s.tensor_efficiency = fraction(*eff, "tensor", s.tensor_efficiency);
    s.cuda_efficiency = fraction(*eff, "cuda", s.cuda_efficiency);
    s.hbm_efficiency = fraction(*eff, "hbm", s.hbm_efficiency);
  }
  s.energy_per_mac_j =
      node.non_negative_quantity_or("energy_per_mac", Dimension::energy, s.energy_per_mac_j);
  // A MAC is two FLOPs: without a separate figure a CUDA-core FLOP costs half a MAC.
  s.energy_per_flop_j =
      node.non_negative_quantity_or("energy_per_flop", Dimension::energy, s.energy_per_mac_j / 2.0);
  s.energy_per_hbm_byte_j =
      kBitsPerByte *
      node.non_negative_quantity_or("hbm_energy_per_bit", Dimension::energy_per_bit, 0.0);
  s.static_power_w = node.non_negative_quantity_or("static_power", Dimension::power, 0.0);
  s.tdp_w = node.non_negative_quantity_or("tdp", Dimension::power, 0.0);
  return s;
}

std::vector<std::string> gpu_spec_summary(const ConfigNode& node) {
  const GpuSpec s = parse_gpu_spec(node);
  std::vector<std::string> out;
  out.push_back("SMs            " + std::to_string(s.sms()) + " (" + std::to_string(s.gpcs) + " GPCs x " +
                std::to_string(s.tpcs_per_gpc) + " TPCs x " + std::to_string(s.sms_per_tpc) + " SMs)");
  out.push_back("CUDA FP32      " + format_quantity(2.0 * s.sms() * s.fp32_cores_per_sm * s.clock_hz, Dimension::flop_rate) +
                " (FMA)");
  for (const auto& [dtype, rate] : s.tensor_flops) {
    std::string name(ir::dtype_name(dtype));
    name.resize(std::max<size_t>(name.size(), 9), ' ');
    out.push_back("tensor " + name + format_quantity(rate, Dimension::flop_rate));
  }
  out.push_back("HBM            " + format_quantity(s.hbm_bandwidth, Dimension::bandwidth) + ", " +
                format_quantity(s.hbm_capacity, Dimension::data) + "; L2 " + format_quantity(s.l2_bytes, Dimension::data));
  return out;
}

}  // namespace lightcode::hw
