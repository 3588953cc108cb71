#include "sim/validate/gpu_validation.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "frontend/load_model.hpp"
#include "frontend/models/module_graphs.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/objective.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"
#include "sim/sched/policy.hpp"

namespace lightcode::validate {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  return out;
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Where a task's kernel time goes in the end-to-end breakdown: products of the attention
// (batch matmuls), its softmax and mask, and fused attention kernels are attention; dense
// products and fused GEMMs are GEMM; everything else is element-wise.
enum class Bucket { gemm, attention, elementwise };
Bucket bucket_of(const opt::Task& t, const opt::TaskGraph& tasks) {
  if (t.fused >= 0) {
    switch (tasks.kernels[static_cast<size_t>(t.fused)].cls) {
      case ir::KernelClass::gemm:
        return Bucket::gemm;
      case ir::KernelClass::attention:
        return Bucket::attention;
      default:
        return Bucket::elementwise;
    }
  }
  const bool attention_named = ends_with(t.name, ".mask") || ends_with(t.name, ".mask_slice") ||
                               t.name.find(".sdpa.") != std::string::npos;
  if (t.kind == ir::OpKind::matmul || t.kind == ir::OpKind::softmax || attention_named)
    return Bucket::attention;
  if (t.kind == ir::OpKind::dense || t.kind == ir::OpKind::pack) return Bucket::gemm;
  return Bucket::elementwise;
}

std::string kernel_class(frontend::LlamaModule m) {
  using frontend::LlamaModule;
  switch (m) {
    case LlamaModule::emb:
      return "gather";
    case LlamaModule::input_layernorm:
    case LlamaModule::post_attention_layernorm:
      return "norm";
    case LlamaModule::attn_rope:
      return "rope";
    case LlamaModule::mlp_act:
      return "activation";
    case LlamaModule::add:
      return "elementwise";
    default:
      return "gemm";
  }
}

// The system's GPU model (found by capability, not by name).
const hw::GpuModel* gpu_of(const hw::System& system) {
  for (size_t u = 0; u < system.unit_count(); ++u) {
    const hw::HardwareModel& m = system.model(static_cast<hw::UnitType>(u));
    if (m.capabilities().role == hw::TransferRole::gpu)
      return dynamic_cast<const hw::GpuModel*>(&m);
  }
  return nullptr;
}

std::string stem(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

}  // namespace

std::vector<ReferenceRow> read_reference(const std::string& path) {
  const std::string text = read_input_file(path, "reference CSV", limits::kCsvFileBytes);
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<ReferenceRow> rows;
  int line_no = 0;
  auto fail = [&](const std::string& why) {
    throw Error(path + ":" + std::to_string(line_no) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cells = split(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (cells.size() != header.size()) fail("expected " + std::to_string(header.size()) + " cells");
    ReferenceRow r;
    for (size_t i = 0; i < cells.size(); ++i) {
      const std::string& key = header[i];
      const std::string& v = cells[i];
      try {
        if (key == "gpu")
          r.gpu = v;
        else if (key == "model")
          r.model = v;
        else if (key == "tensor_parallel")
          r.tensor_parallel = std::stoll(v);
        else if (key == "num_tokens")
          r.tokens = std::stoll(v);
        else if (key == "n_head")
          r.heads = std::stoll(v);
        else if (key == "n_kv_head")
          r.kv_heads = std::stoll(v);
        else if (key == "n_embd")
          r.hidden = std::stoll(v);
        else if (key == "n_expanded_embd")
          r.intermediate = std::stoll(v);
        else if (key == "vocab_size")
          r.vocab = std::stoll(v);
        else if (ends_with(key, "_ms") && !v.empty()) {
          r.measured.emplace_back(key.substr(0, key.size() - 3), std::stod(v) * 1e-3);
        }
      } catch (const std::exception&) {
        fail("column '" + key + "': not a number: '" + v + "'");
      }
    }
    if (r.tokens <= 0 || r.hidden <= 0 || r.heads <= 0)
      fail("num_tokens, n_embd and n_head must be positive");
    rows.push_back(std::move(r));
  }
  if (rows.empty()) throw Error(path + ": no data rows");
  return rows;
}

hw::System kernel_time_system(const std::string& system_file) {
  const ConfigNode c = ConfigNode::load_file(system_file, "system file")
                           .with_value("units.gpu.launch_overhead", "0 s", "kernel time (validate)")
                           .with_value("units.gpu.kernel_gap", "0 s", "kernel time (validate)");
  return hw::System::from_config(c, hw::profile_named("default"));
}

PipelineTimes run_pipeline(const ir::Graph& graph, const hw::System& system) {
  const hw::Profile& profile = system.profile();
  const opt::StackedGraph stacks(graph, system);
  const opt::Partition part = opt::partition_for(stacks);
  const opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
  const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
  const sched::SchedulingPolicy& policy = sched::default_policies().at(profile.default_scheduler());
  const sched::Schedule schedule = sched::schedule(tasks, sched::unit_instances(system), policy);
  PipelineTimes out;
  out.makespan_s = schedule.makespan.seconds();
  for (const opt::Task& t : tasks.tasks) {
    if (t.kind == ir::OpKind::start || t.repeat) continue;
    if (system.model(t.unit).capabilities().category == hw::EnergyCategory::memory) continue;
    const double s = t.cost.time.seconds();
    if (s == 0.0) continue;
    out.kernel_s += s;
    ++out.kernels;
    switch (bucket_of(t, tasks)) {
      case Bucket::gemm:
        out.gemm_s += s;
        break;
      case Bucket::attention:
        out.attention_s += s;
        break;
      case Bucket::elementwise:
        out.elementwise_s += s;
        break;
    }
  }
  return out;
}

results::ValidationFile run_validation(const ValidationOptions& o) {
  results::ValidationFile file;
  file.reference = o.reference;
  file.gpu_system = o.gpu_system;
  file.a100_system = o.a100_system;
  const std::vector<ReferenceRow> reference = read_reference(o.reference);
  const hw::System kernels = kernel_time_system(o.gpu_system);
  const hw::GpuModel* gpu = gpu_of(kernels);
  if (!gpu) throw Error(o.gpu_system + ": the system has no GPU");
  for (const ReferenceRow& r : reference) {
    frontend::LlamaShape shape;
    shape.tokens = r.tokens;
    shape.hidden = r.hidden;
    shape.intermediate = r.intermediate;
    shape.heads = r.heads;
    shape.kv_heads = r.kv_heads;
    shape.vocab = r.vocab;
    shape.tensor_parallel = r.tensor_parallel;
    for (frontend::LlamaModule m : frontend::llama_modules()) {
      const std::string name(frontend::llama_module_name(m));
      // The two norms are one module lowered twice; each has its own measured column.
      double measured = -1.0;
      for (const auto& [column, seconds] : r.measured) {
        if (column == name) measured = seconds;
      }
      if (measured <= 0.0) continue;
      const ir::Graph g = frontend::llama_module_graph(m, shape);
      const PipelineTimes t = run_pipeline(g, kernels);
      results::KernelValidationRow row;
      row.gpu = r.gpu;
      row.model = r.model;
      row.tensor_parallel = r.tensor_parallel;
      row.tokens = r.tokens;
      row.module = name;
      row.kernel_class = kernel_class(m);
      row.measured_s = measured;
      row.predicted_s = t.kernel_s;
      row.kernels = t.kernels;
      ir::FusedKernel kernel;
      row.fused_model_s = frontend::llama_module_kernel(m, g, kernel) && gpu->fuses(kernel.rule)
                              ? gpu->plan_fused(kernel).kernel().seconds()
                              : t.kernel_s;
      file.kernels.push_back(std::move(row));
    }
  }
  for (const std::string& system_file : {o.gpu_system, o.a100_system}) {
    if (system_file.empty()) continue;
    const hw::System system = hw::System::load(system_file, hw::profile_named("default"));
    const hw::System kernel_only = kernel_time_system(system_file);
    const hw::GpuModel* g = gpu_of(system);
    for (int64_t tokens : o.prompt_tokens) {
      frontend::ModelRequest req;
      req.model = o.model;
      req.stage = frontend::Stage::prefill;
      req.length = tokens;
      const ir::Graph graph = frontend::load_model(req);
      const PipelineTimes real = run_pipeline(graph, system);
      const PipelineTimes kernel = run_pipeline(graph, kernel_only);
      results::EndToEndRow row;
      row.system = stem(system_file);
      row.gpu = g ? g->spec().name : "";
      row.model = o.model;
      row.tokens = tokens;
      row.makespan_s = real.makespan_s;
      row.gemm_s = kernel.gemm_s;
      row.attention_s = kernel.attention_s;
      row.elementwise_s = kernel.elementwise_s;
      row.gaps_s = std::max(0.0, real.makespan_s - kernel.kernel_s);
      row.kernels = kernel.kernels;
      file.end_to_end.push_back(std::move(row));
    }
  }
  return file;
}

}  // namespace lightcode::validate
