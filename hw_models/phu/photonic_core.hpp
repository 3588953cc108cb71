#pragma once
// A photonic tensor core built from devices (the `core:` table of a `family: phu` config):
// tiles x cores per tile, each core an H x W grid of dot-product nodes fed by N wavelengths,
// at one clock, with input / weight / output precisions. Derived, in SI units:
//   peak MAC/s      tiles x cores x H x W x N x clock
//   device counts   Lightening-Transformer's rules (entry_area_power_profile.py,
//                   photonic_crossbar.py), restated in photonic_core.cpp beside each count
//   power           every device at the core clock with no activity factor (as the published
//                   figures are), split into static (ring tuning, buffers, phase shifters)
//                   and dynamic (laser, modulators, DACs, detectors, TIAs, ADCs, adders: what
//                   a product charges per event, photonic_work.hpp)
// Operand 1 (the weights, H x N modulators per core) and operand 2 (the activations, W x N)
// convert at weight_bits and input_bits; the readout at output_bits.
//   area            device footprints x counts, the node layout, the buffers
// A precision above the converter's bits is an error at the precision's key.
// A product may require fewer bits than the core's (sim/ir/precision.hpp): at_precision(b) is
// the same core driving its DACs at b bits and reading out with the design's headroom kept
// (output - operand bits), so the laser's 2^bits margin and the converters' power follow b.
// This is our rule, an inference: the published DOTA designs read out at their operand bits,
// and Lightening-Transformer costs its 4- and 8-bit designs with these same laws. A product
// requiring more than max_product_bits() is refused.
#include <algorithm>
#include <string>
#include <vector>

#include "hw_models/phu/devices.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

struct CoreCounts {
  int64_t cores = 0;                // tiles x cores per tile
  int64_t operand1_modulators = 0;  // weights: H x N per core
  int64_t operand2_modulators =
      0;                       // activations: W x N per core, or per tile's cores when broadcast
  int64_t modulators = 0;      // one DAC each
  int64_t rings_powered = 0;   // rings_per_modulator per modulator
  int64_t rings_placed = 0;    // (H + W) x N x rings_per_modulator per core
  int64_t nodes = 0;           // H x W per core
  int64_t photodetectors = 0;  // detectors_per_node per node
  int64_t readouts = 0;        // ADC + TIA + adder: per node, or per tile when shared
  int64_t lasers_powered = 0;  // one per core
  int64_t sources_placed = 0;  // lasers and micro-combs placed: tiles + cores per tile
};

// One line of a breakdown: a published category name and its value (W or m^2).
struct BreakdownItem {
  std::string name;
  double value = 0.0;
  bool is_static = false;  // power only: drawn whether or not the core computes
};

struct BufferUse {
  Device buffer;
  int64_t count = 0;
};

// The memory hierarchy's access energies (per product, photonic_work.hpp).
struct MemoryLevels {
  bool present = false;
  Device dram, global_buffer_2, global_buffer_1, noc, register_file;
};

struct PhotonicCore {
  int tiles = 1;
  int cores_per_tile = 1;
  int height = 1;
  int width = 1;
  int wavelengths = 1;
  double clock_hz = 0.0;
  int input_bits = 8;
  int weight_bits = 8;
  int output_bits = 8;
  int temporal_accumulation = 1;        // cycles a node integrates before its readout, at most
  bool broadcast_operand2 = true;       // operand 2 modulated once, shared by every tile
  bool share_readout = true;            // ADC/TIA/adder shared by the cores of a tile
  bool count_laser_loss = false;        // SimPhony: the laser's coupling loss in the budget
  bool count_extinction_ratio = false;  // SimPhony: 1 / (1 - 10^(-ER/10)) on the laser
  int rings_per_modulator = 2;
  int detectors_per_node = 2;
  double node_spacing_length_m = 0.0;
  double node_spacing_width_m = 0.0;
  Device laser, micro_comb, modulator, ring, phase_shifter, coupler, y_branch, photodetector, tia,
      adc, dac, adder;
  std::vector<BufferUse> buffers;
  MemoryLevels memory_levels;
  double dram_bandwidth = 0.0;  // B/s for the operands' preload; 0: not a bound

  int64_t cores() const { return int64_t{tiles} * cores_per_tile; }
  int max_product_bits() const { return std::min(input_bits, weight_bits); }
  // Precondition: 1 <= bits <= max_product_bits().
  PhotonicCore at_precision(int bits) const;
  int64_t macs_per_cycle() const;  // every core, every node, every wavelength
  double peak_macs_per_s() const { return static_cast<double>(macs_per_cycle()) * clock_hz; }
  CoreCounts counts() const;

  double modulation_loss_db() const;  // modulator + rings + the Y-branch tree to the nodes
  double node_loss_db() const;        // Y-branch + phase shifter + coupler
  double link_loss_db() const;        // both, plus the laser's coupling loss when counted
  double laser_optical_dbm() const;
  double laser_power_per_core_w() const;
  double adc_power_w() const;  // one ADC at output_bits and the clock
  double dac_power_w(int bits) const;
  double modulator_power_w() const;  // one symbol per cycle, plus its static power
  double node_length_m() const;
  double node_width_m() const;

  std::vector<BreakdownItem> power_breakdown() const;
  std::vector<BreakdownItem> area_breakdown() const;
  double total_power_w() const;
  double static_power_w() const;
  double total_area_m2() const;
};

const ParamTable& photonic_core_params();
// Reads `core` (the table) with devices from `library`; errors at the offending key, and at the
// input to blame when a derived figure (power, area, energy per event) is not finite.
PhotonicCore parse_photonic_core(const Params& core, const DeviceLibrary& library);
// That last check (photonic_core_check.cpp).
void check_core_figures(const PhotonicCore& core, const Params& p);
// `hw show` lines: peak, TOPS/W, TOPS/mm2, link budget, the power and area breakdowns.
std::vector<std::string> photonic_core_summary(const PhotonicCore& core);

}  // namespace lightcode::hw
