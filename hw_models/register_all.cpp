// The one place every hardware family and its algorithms are registered (no static
// self-registration). `lightcode hw list` prints what is here.
#include "hw_models/cpu/cpu_model.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/lightcode/lightcode_models.hpp"
#include "hw_models/memory/memory_model.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {

void register_all(Registry& registry) {
  registry.add({"cpu", "CPU cores: per-op cycle models, optional calibrated linear fits",
                cpu_algorithms(),
                [](const ConfigNode& spec, Profile profile) {
                  const CpuSpec s = parse_cpu_spec(spec);
                  return profile == Profile::lightcode ? make_lightcode_cpu(s) : make_cpu_model(s);
                }});
  registry.add({"gpu", "H100-like GPU: GPCs > TPCs > SMs, CTA tiling in waves, tensor/CUDA cores, HBM",
                gpu_algorithms(),
                [](const ConfigNode& spec, Profile) { return make_gpu_model(parse_gpu_spec(spec)); }});
  registry.add({"phu", "Photonic unit: WDM-multiplexed cores, matrix products only, DAC in / ADC out",
                phu_algorithms(),
                [](const ConfigNode& spec, Profile profile) {
                  const PhuSpec s = parse_phu_spec(spec);
                  return profile == Profile::lightcode ? make_lightcode_phu(s) : make_phu_model(s);
                }});
  registry.add({"memory", "HBM (graph inputs, weights) and SRAM (split/merge of expanded products)",
                memory_algorithms(),
                [](const ConfigNode& spec, Profile profile) {
                  const MemorySpec s = parse_memory_spec(spec);
                  return profile == Profile::lightcode ? make_lightcode_memory(s)
                                                       : make_memory_model(s);
                }});
}

}  // namespace lightcode::hw
