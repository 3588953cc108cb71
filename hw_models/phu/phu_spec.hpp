#pragma once
// Photonic unit spec (family: phu): wavelength-multiplexed cores that only run matrix
// products. multiplex = WDM wavelengths per core = dot products in flight per cycle. Every key
// is declared once in phu_params() (phu_spec.cpp) with its unit, default and meaning; a
// converter's sample rate of 0 means unlimited (the original models no conversion bound).
// A unit built from devices has a `core:` table and a `device_library:` instead of cores,
// clock and multiplex (photonic_core.hpp): one unit whose tiles and cores share each product
// (phu_device_model.cpp); `cores` of a per-number PHU are units that each run whole products.
#include <memory>
#include <string>
#include <vector>

#include "hw_models/phu/photonic_core.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

struct ConverterSpec {
  double latency_s = 0.0;
  double sample_rate = 0.0;  // samples per second per converter; 0 = unlimited
  double energy_per_sample_j = 0.0;
  int count = 1;  // converters per core working in parallel
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
  std::shared_ptr<const PhotonicCore> core;  // set when built from devices
};

const ParamTable& phu_params();
PhuSpec parse_phu_spec(const Params& params);
PhuSpec parse_phu_spec(const ConfigNode& node);  // with a usage record of its own
// `spec` when it is a per-number PHU (cores, clock, multiplex; no `core`), else an error at its
// place: the lightcode profile's PHU is the original's per-number constants only.
const Params& require_per_number_phu(const Params& spec);
// One converter (`dac:` or `adc:`); an absent one is ideal: no latency, unlimited rate, no
// energy, one per core.
ConverterSpec parse_converter(const Params& phu, std::string_view key);
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> phu_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
