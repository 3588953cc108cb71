// The one place every hardware family and profile is registered (no static self-
// registration). `lightcode list` prints what is here. Adding a family: its files, and one
// registry.add line here.
#include "hw_models/cpu/cpu_model.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/interconnect/interconnect_model.hpp"
#include "hw_models/lightcode/lightcode_models.hpp"
#include "hw_models/lightcode/lightcode_profile.hpp"
#include "hw_models/memory/memory_model.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {
namespace {

template <class Spec, Spec (*parse)(const Params&), std::unique_ptr<HardwareModel> (*make)(const Spec&)>
std::unique_ptr<HardwareModel> build(const Params& spec) {
  return make(parse(spec));
}

// The CPU's parser has a display mode (`hw show`), so it is not a plain Spec(const Params&).
std::unique_ptr<HardwareModel> default_cpu(const Params& spec) { return make_cpu_model(parse_cpu_spec(spec)); }

std::unique_ptr<HardwareModel> no_model(const Params&) { return nullptr; }

const ParamTable& start_params() {
  static const ParamTable table{"start", "The lightcode profile's start pseudo-unit: no keys (never in a file).", {}};
  return table;
}

std::vector<std::string> start_summary(const ConfigNode&) {
  return {"pseudo-unit of the lightcode profile: each subgraph's start node"};
}

}  // namespace

void register_all(Registry& registry) {
  registry.add(FamilyInfo{"cpu", "CPU cores: per-op cycle models, optional calibrated linear fits",
                          cpu_algorithms(), Section::units, default_cpu,
                          {{"lightcode", make_lightcode_cpu}}, make_service_modules, cpu_spec_summary, &cpu_params()});
  registry.add(FamilyInfo{"gpu", "H100-like GPU: GPCs > TPCs > SMs, CTA tiling in waves, tensor/CUDA cores, HBM",
                          gpu_algorithms(), Section::units, build<GpuSpec, parse_gpu_spec, make_gpu_model>, {},
                          make_gpu_modules, gpu_spec_summary, &gpu_params()});
  registry.add(FamilyInfo{"phu", "Photonic unit: WDM-multiplexed cores, matrix products only, DAC in / ADC out",
                          phu_algorithms(), Section::units, build<PhuSpec, parse_phu_spec, make_phu_model>,
                          {{"lightcode", make_lightcode_phu}}, make_phu_modules, phu_spec_summary, &phu_params()});
  registry.add(FamilyInfo{"memory", "HBM (graph inputs, weights) and SRAM (split/merge of expanded products)",
                          memory_algorithms(), Section::memory, build<MemorySpec, parse_memory_spec, make_memory_model>,
                          {{"lightcode", make_lightcode_memory}}, make_service_modules, memory_spec_summary,
                          &memory_params()});
  registry.add(FamilyInfo{"interconnect",
                          "Devices joined by NVLink, PCIe or a network: collectives timed as NCCL's tuner times them",
                          interconnect_algorithms(), Section::units,
                          build<InterconnectSpec, parse_interconnect_spec, make_interconnect_model>, {},
                          make_service_modules, interconnect_spec_summary, &interconnect_params()});
  registry.add(FamilyInfo{kStartFamily, "the lightcode profile's per-subgraph start pseudo-unit (internal)",
                          {{"start", "`start` tasks: no time, no energy, not a node"}}, Section::internal, no_model, {},
                          make_service_modules, start_summary, &start_params()});
  registry.add(make_default_profile());
  registry.add(make_lightcode_profile());
}

const Registry& default_registry() {
  static const Registry registry = [] {
    Registry r;
    register_all(r);
    return r;
  }();
  return registry;
}

const Profile& profile_named(std::string_view name) { return default_registry().profile(name); }

}  // namespace lightcode::hw
