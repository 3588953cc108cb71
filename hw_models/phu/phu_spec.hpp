#pragma once
// Photonic unit spec (family: phu): wavelength-multiplexed cores that only run matrix
// products. multiplex = WDM wavelengths per core = dot products in flight per cycle.
//   cores: 1   clock: 9.7 GHz   multiplex: 20
//   energy_per_mac: 0.04 pJ
//   dac: {latency: 0 s, sample_rate: 0 S/s, energy_per_sample: 3.18 pJ, count: 1}
//   adc: {latency: 0 s, sample_rate: 0 S/s, energy_per_sample: 1.6 pJ, count: 1}
//   static_power: 0 W
// A sample rate of 0 means unlimited (the original models no conversion bound).
#include <string>
#include <vector>

#include "sim/core/config.hpp"

namespace lightcode::hw {

struct ConverterSpec {
  double latency_s = 0.0;
  double sample_rate = 0.0;  // samples per second per converter; 0 = unlimited
  double energy_per_sample_j = 0.0;
  int count = 1;             // converters per core working in parallel
};

struct PhuSpec {
  std::string name;
  int cores = 1;
  double clock_hz = 0.0;
  int multiplex = 1;
  double energy_per_mac_j = 0.04e-12;
  ConverterSpec dac;
  ConverterSpec adc;
  double static_power_w = 0.0;
};

PhuSpec parse_phu_spec(const ConfigNode& node);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> phu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
