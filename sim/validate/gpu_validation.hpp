#pragma once
// `lightcode validate`: the GPU model against measured kernels, and end-to-end predictions.
//   Kernels: every row of the reference CSV (measured H100 fp16 kernel times of Llama-2
//   modules, ../shared/reference/gpu/vidur_h100_llama2_kernels.csv) and every module column
//   becomes a module graph (frontend/models/module_graphs.hpp) run through the real pipeline
//   (stacked graph, partition, placement, expansion, analytical schedule) on the GPU system
//   with the runtime's launch and gap set to zero, so the compute tasks' times are kernel
//   times, which is what the reference measured. Also the fused-kernel model's answer on the
//   module's FusedKernel (GpuModel::plan_fused), for the modules a fusion class covers.
//   End to end: a built-in model's prefill on each system as configured (runtime included),
//   the makespan split into GEMM, attention, element-wise kernel time and gaps.
// Pure functions of their inputs: the same files give the same rows.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/ir/graph.hpp"
#include "sim/results/validation_file.hpp"

namespace lightcode::validate {

struct ValidationOptions {
  std::string reference;    // the measured CSV
  std::string gpu_system;   // the system the reference GPU is (h100_sxm.yaml)
  std::string a100_system;  // an unseen GPU's system, end to end only ("" = none)
  std::string model = "llama-2-7b";
  std::vector<int64_t> prompt_tokens{128, 512, 2048};
};

// One reference row: the module shapes and the measured time of each module (seconds; a
// missing or empty cell is left out).
struct ReferenceRow {
  std::string gpu, model;
  int64_t tensor_parallel = 1, tokens = 0;
  int64_t heads = 0, kv_heads = 0, hidden = 0, intermediate = 0, vocab = 0;
  std::vector<std::pair<std::string, double>> measured;  // module name -> seconds
};

// Throws lightcode::Error naming the file and line for a malformed row.
std::vector<ReferenceRow> read_reference(const std::string& path);

// The system file with the GPU's launch overhead and kernel gap set to zero.
hw::System kernel_time_system(const std::string& system_file);

struct PipelineTimes {
  double kernel_s = 0.0;  // compute tasks' times (launches and gaps excluded when the
                          // system is a kernel_time_system)
  double makespan_s = 0.0;
  double gemm_s = 0.0, attention_s = 0.0, elementwise_s = 0.0;
  int64_t kernels = 0;  // compute tasks that take time
};
// The real pipeline on `graph` (time objective, the system's profile).
PipelineTimes run_pipeline(const ir::Graph& graph, const hw::System& system);

results::ValidationFile run_validation(const ValidationOptions& options);

}  // namespace lightcode::validate
