#pragma once
// Default-profile photonic unit (PHU). Runs matrix products only (dense, matmul, pack,
// matrix_matrix), algorithm `task_parallel`. The PHU is one unit whose cores share each
// product (the `lightcode` profile keeps the original's one product per core): a 2-D
// product's n = M x N output dot products of length K spread over cores x multiplex
// wavelength lanes, one K element per clock cycle, and its samples over every core's
// converters; the products of a batch (batch_matmul) run one after another, each on all cores.
// After expansion every 2-D product is its own task on the one unit.
//   per product = max(ceil(M x N / (cores x multiplex)) x K / clock,            optical compute
//                     product input samples / (dac.sample_rate x dac.count x cores),   DAC
//                     product output samples / (adc.sample_rate x adc.count x cores))  ADC
//   time        = batch x per product + dac.latency + adc.latency
//   bound       = compute, or conversion when a converter is the slowest
//   energy      = MACs x energy_per_mac + input samples x dac.energy_per_sample
//                 + output samples x adc.energy_per_sample
// Samples: every element of every input is converted by a DAC exactly once (operands are
// held optically while reused), and every element of every output by an ADC exactly once.
// A sample rate of 0 is unlimited. batch = n_out / (M x N) with [.., M, N] the output.
// A unit built from devices (spec.core) is one unit instead, whose tiles and cores share each
// product's work, costed from event counts (phu_device_model.cpp, photonic_work.hpp).
#include <memory>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/unit_modules.hpp"

namespace lightcode::hw {

enum PhuAlgorithm : AlgorithmId {
  kPhuTaskParallel = 0,
};

std::unique_ptr<HardwareModel> make_phu_model(const PhuSpec& spec);
std::unique_ptr<HardwareModel> make_device_phu_model(const PhotonicCore& core);
// What both PHU models share: photonic, operands in SRAM, products only.
Capabilities phu_capabilities(double clock_hz);
AlgorithmList phu_algorithms_for(const ir::Node& op);
// Its SystemC cores (hw_models/phu/sc_phu_core.cpp): one PhuCore per core.
std::unique_ptr<UnitModules> make_phu_modules(const ModuleContext& context);
std::vector<AlgorithmInfo> phu_algorithms();

}  // namespace lightcode::hw
