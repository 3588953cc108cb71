#pragma once
// Scaling laws of a photonic core's devices, pure functions in SI units (W, Hz, dB, dBm).
// Sources (../shared/reference/photonic/designs.yaml, "Converter energy models"):
//   SAR ADC        P = P_ref x (f / f_ref) x (b / b_ref)
//                  Lightening-Transformer hardware/ADC.py cal_ADC_param (SimPhony's
//                  energy.py cal_ADC_power is the same law)
//   capacitive DAC P = P_ref x ((2^b / b) / (2^b_ref / b_ref)) x (f / f_ref)
//                  Lightening-Transformer hardware/DAC.py cal_DAC_param
//   laser          optical dBm = sensitivity + path loss + 10 log10(detectors fed);
//                  electrical W = optical W / wall-plug efficiency x 2^bits (the SNR margin for
//                  a b-bit readout) [x 1 / (1 - 10^(-ER/10)) when the extinction ratio counts]
//                  Lightening-Transformer hardware/photonic_crossbar.py cal_laser_power;
//                  SimPhony adds the laser's coupling loss and the extinction-ratio factor.
// Devices run at the core clock with no activity factor, as both simulators charge them.
#include <cmath>

namespace lightcode::hw {

inline double sar_adc_power(double ref_power_w, int ref_bits, double ref_rate, int bits,
                            double rate) {
  return ref_power_w * (rate / ref_rate) * (static_cast<double>(bits) / ref_bits);
}

inline double capacitive_dac_power(double ref_power_w, int ref_bits, double ref_rate, int bits,
                                   double rate) {
  const double shape = std::ldexp(1.0, bits) / bits;
  const double ref_shape = std::ldexp(1.0, ref_bits) / ref_bits;
  return ref_power_w * (shape / ref_shape) * (rate / ref_rate);
}

inline double dbm_to_watts(double dbm) {
  return 1e-3 * std::pow(10.0, dbm / 10.0);
}

// Stages of a binary Y-branch tree that fans one input out to `outputs` (ceil(log2 n)).
inline int y_tree_stages(int outputs) {
  int stages = 0;
  while ((1 << stages) < outputs) ++stages;
  return stages;
}

// Optical power the laser must emit (dBm) so each of `detectors` gets `sensitivity_dbm`
// through `loss_db`.
inline double required_optical_dbm(double sensitivity_dbm, double loss_db, int detectors) {
  return sensitivity_dbm + loss_db + 10.0 * std::log10(static_cast<double>(detectors));
}

// Electrical power of a laser that emits `optical_dbm`, for a `bits`-bit readout.
inline double laser_electrical_power(double optical_dbm, double wall_plug_efficiency, int bits,
                                     double extinction_ratio_db = 0.0) {
  double watts = dbm_to_watts(optical_dbm) / wall_plug_efficiency * std::ldexp(1.0, bits);
  // A finite extinction ratio leaves light in the "off" state: more laser for the same swing.
  if (extinction_ratio_db > 0.0) watts /= 1.0 - std::pow(10.0, -extinction_ratio_db / 10.0);
  return watts;
}

}  // namespace lightcode::hw
