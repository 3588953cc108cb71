#pragma once
// Default-profile photonic unit (PHU). Runs matrix products only (dense, matmul, pack,
// matrix_matrix), algorithm `task_parallel`: the op's n_out output dot products, each of
// length K, are spread over cores x multiplex wavelengths, one K element per clock cycle.
// The PHU is one unit: its cores split one product between them (they are not also units
// the scheduler spreads products over; that double count is the original's quirk).
//   compute    = ceil(ceil(n_out / multiplex) / cores) * K / clock        (the original's ceils)
//   DAC        = input samples / (dac.sample_rate * dac.count * cores)     (0 when rate is 0)
//   ADC        = output samples / (adc.sample_rate * adc.count * cores)    (0 when rate is 0)
//   time       = max(compute, DAC, ADC) + dac.latency + adc.latency
//   bound      = compute, or conversion when a converter is the slowest
//   energy     = MACs * energy_per_mac + input samples * dac.energy_per_sample
//                + output samples * adc.energy_per_sample
// Samples: every element of every input is converted by a DAC exactly once (operands are
// held optically while reused), and every element of every output by an ADC exactly once.
// n_out = elements of output 0, K = last dimension of input 0, MACs = n_out * K.
#include <memory>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {

enum PhuAlgorithm : AlgorithmId {
  kPhuTaskParallel = 0,
};

std::unique_ptr<HardwareModel> make_phu_model(const PhuSpec& spec);
std::vector<AlgorithmInfo> phu_algorithms();

}  // namespace lightcode::hw
