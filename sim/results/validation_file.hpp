#pragma once
// The HDF5 file `lightcode validate` writes (read by tools/validation_report.py):
//   root attributes  format ("lightcode-validation"), format_version, tool_version, reference
//                    (the measured CSV), gpu_system and a100_system (the system files);
//   /kernels         one row per (reference row, module): measured vs predicted kernel time;
//   /end_to_end      one row per (system, prompt length): the makespan and its breakdown.
// Times in seconds (float64). Written to a temporary and renamed; same input, same bytes.
// And the file `lightcode validate-collectives` writes (read by tools/collectives_report.py):
//   root attributes  format ("lightcode-collectives"), format_version, tool_version, reference;
//   /collectives     one row per reference row: measured vs predicted time, the chosen
//                    algorithm and protocol, and the interconnect file that predicted it.
// And the file `lightcode validate-photonic` writes (read by the same script):
//   root attributes  format ("lightcode-photonic-designs"), format_version, tool_version;
//   /designs         one row per device-built PHU file: its shape, peak, power and area;
//   /breakdown       one row per (design, power or area, published category): W or m^2.
#include <cstdint>
#include <string>
#include <vector>

namespace lightcode::results {

struct KernelValidationRow {
  std::string gpu;    // the reference's GPU ("h100")
  std::string model;  // "meta-llama/Llama-2-7b-hf"
  int64_t tensor_parallel = 1;
  int64_t tokens = 0;
  std::string module;        // the CSV column without `_ms`: "attn_pre_proj"
  std::string kernel_class;  // gemm, norm, rope, activation, elementwise, gather
  double measured_s = 0.0;
  double predicted_s = 0.0;    // the pipeline's GPU tasks, kernel time (no launches or gaps)
  double fused_model_s = 0.0;  // GpuModel::plan_fused on the module's FusedKernel (or = predicted)
  int64_t kernels = 0;         // GPU tasks the pipeline ran for the module
};

struct EndToEndRow {
  std::string system;  // system file stem: "h100_sxm"
  std::string gpu;     // the GPU's display name
  std::string model;
  int64_t tokens = 0;
  double makespan_s = 0.0;
  double gemm_s = 0.0;         // kernel time of dense / pack tasks (and fused GEMMs)
  double attention_s = 0.0;    // batch matmuls, softmax, mask (or fused attention)
  double elementwise_s = 0.0;  // every other GPU kernel (norms, rotary, activations, copies)
  double gaps_s = 0.0;         // the rest of the makespan: launches and kernel gaps
  int64_t kernels = 0;
};

struct ValidationFile {
  std::string tool_version;
  std::string reference;
  std::string gpu_system;
  std::string a100_system;
  std::vector<KernelValidationRow> kernels;
  std::vector<EndToEndRow> end_to_end;
};

void write_validation(const std::string& path, const ValidationFile& file);

struct PhotonicDesignRow {
  std::string design;  // the hardware file's stem: "phu_dota_b"
  std::string file;    // as given on the command line
  int64_t tiles = 0, cores_per_tile = 0, height = 0, width = 0, wavelengths = 0;
  int64_t input_bits = 0, weight_bits = 0, output_bits = 0;
  double clock_hz = 0.0;
  double peak_ops_per_s = 0.0;  // 2 x MAC/s
  double power_w = 0.0;         // every device at the clock, no activity factor
  double static_power_w = 0.0;
  double area_m2 = 0.0;
};

struct PhotonicBreakdownRow {
  std::string design;
  std::string quantity;  // "power" (W) or "area" (m^2)
  std::string item;      // the published category name
  double value = 0.0;
  int64_t is_static = 0;  // power only: drawn whether or not the core computes
};

struct PhotonicDesignFile {
  std::string tool_version;
  std::vector<PhotonicDesignRow> designs;
  std::vector<PhotonicBreakdownRow> breakdown;
};

void write_photonic_designs(const std::string& path, const PhotonicDesignFile& file);

struct CollectiveValidationRow {
  std::string collective;  // all_reduce, send_recv
  std::string system;      // the reference's device and topology: "h100_dgx"
  std::string hardware;    // the interconnect file's stem that predicted it: "nvlink4_nvswitch"
  std::string topology;    // that file's topology: switch, ring, point_to_point
  int64_t ranks = 0;
  std::string scope;  // intra-node, inter-node
  int64_t size_bytes = 0;
  int64_t repeat = 0;  // the reference measures one size twice per configuration
  double measured_s = 0.0;
  double predicted_s = 0.0;
  double error = 0.0;  // predicted / measured - 1
  std::string algorithm;
  std::string protocol;
};

struct CollectiveValidationFile {
  std::string tool_version;
  std::string reference;
  std::vector<CollectiveValidationRow> rows;
};

void write_collectives(const std::string& path, const CollectiveValidationFile& file);

}  // namespace lightcode::results
