#pragma once
// One matrix product on a device-built photonic core, from event counts (the workload rules of
// Lightening-Transformer's simulator, ../shared/reference/photonic/README.md). Operand 1 (the
// weights, N1 x D) is modulated per tile; operand 2 (the activations, D x N2) once for every
// tile when broadcast. iter_N1 = ceil(N1 / H), iter_N2 = ceil(N2 / W), iter_D = ceil(D / N).
//   core-cycles        batch x iter_N1 x iter_N2 x iter_D, shared by tiles x cores:
//                      cycles = ceil(core-cycles / (tiles x cores)); time = cycles / clock,
//                      or the operands' preload at the DRAM bandwidth when that is longer
//   laser              core-cycles x laser power per core / clock
//   modulation         operand 1: N1 x D x iter_N2 conversions, operand 2: iter_N1 x N2 x D
//                      (/ tiles when broadcast), each (DAC at its bits + modulator) / clock
//   detection          node-cycles N1 x N2 x iter_D x detectors per node x PD power / clock;
//                      readouts N1 x N2 x ceil(ceil(iter_D / T) / g) x (ADC + TIA + adder) /
//                      clock, T = min(temporal_accumulation, ceil(D / (g x N))), g = the cores
//                      of a tile sharing a readout (1 without sharing)
//   memory             per element of b bits, access energy x b / 16 (LT's per-2-byte figures);
//                      the access counts are ours (an inference): every operand and output
//                      element crosses DRAM, both global-buffer levels and the NoC once, and
//                      the register file once per conversion
//   static             the core's static power (ring tuning, buffers) x time: for the
//                      breakdown only; the report charges static power over the makespan
// Every event count is per batch element times the batch. Energies in J, times in s.
#include <cstdint>
#include <string_view>

#include "hw_models/phu/photonic_core.hpp"

namespace lightcode::hw {

struct ProductShape {
  int64_t n1 = 1;  // operand-1 rows (output columns)
  int64_t d = 1;   // reduction length
  int64_t n2 = 1;  // operand-2 columns (output rows)
  int64_t batch = 1;
};

struct PhotonicEnergy {
  double laser_j = 0.0;
  double modulation_j = 0.0;  // DACs and modulators
  double detection_j = 0.0;   // photodetectors, TIAs, ADCs, adders
  double memory_j = 0.0;
  double static_j = 0.0;      // informational: charged over the makespan, not per product
  double conversion_j = 0.0;  // the DAC and ADC part of modulation and detection
  double dynamic_j() const { return laser_j + modulation_j + detection_j + memory_j; }
};

struct ProductCost {
  int64_t core_cycles = 0;  // summed over every core
  int64_t cycles = 0;       // wall-clock cycles with the cores sharing the work
  double compute_s = 0.0;
  double preload_s = 0.0;
  double time_s = 0.0;
  bool memory_bound = false;
  int readout_period = 1;  // T
  PhotonicEnergy energy;
};

// A core's energy per event (J), computed once per model so an estimate is arithmetic only.
struct EventEnergies {
  double laser_core_cycle_j = 0.0;
  double weight_dac_j = 0.0;  // one operand-1 conversion
  double input_dac_j = 0.0;   // one operand-2 conversion
  double modulator_j = 0.0;   // one modulated symbol
  double node_cycle_j = 0.0;  // a node's photodetectors for a cycle
  double adc_j = 0.0;         // one readout's ADC
  double tia_adder_j = 0.0;   // one readout's TIA and adder
  double static_w = 0.0;
  double weight_through_j = 0.0;  // one element through DRAM, both global buffers and the NoC
  double input_through_j = 0.0;
  double output_through_j = 0.0;
  double weight_rf_j = 0.0;  // one register-file read per conversion
  double input_rf_j = 0.0;
};

EventEnergies event_energies(const PhotonicCore& core);
// `op_name` names the op in an overflow error.
ProductCost photonic_product_cost(const PhotonicCore& core, const EventEnergies& per_event,
                                  const ProductShape& shape, std::string_view op_name);
ProductCost photonic_product_cost(const PhotonicCore& core, const ProductShape& shape,
                                  std::string_view op_name);

}  // namespace lightcode::hw
