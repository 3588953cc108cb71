#pragma once
// Physical quantities written as strings in configs: "9.7 GHz", "3.35 TB/s", "0.04 pJ".
// parse_quantity returns the value in SI base units (Hz, s, J, W, B, B/s, FLOP/s, J/bit ...).
// A number without a unit, or a unit of the wrong dimension, is an error naming both.
#include <string>
#include <string_view>

namespace lightcode {

enum class Dimension {
  frequency,       // Hz
  duration,        // s
  energy,          // J (per event: per MAC, per sample, per element)
  power,           // W
  data,            // B (bytes; "bit" and "b" accepted, /8)
  bandwidth,       // B/s ("bit/s" and "b/s" accepted, /8)
  flop_rate,       // FLOP/s
  mac_rate,        // MAC/s
  sample_rate,     // S/s (samples per second; "Sa/s" accepted)
  energy_per_bit,  // J/bit ("J/B" accepted, /8)
  length,          // m ("um", "mm"; device footprints)
  area,            // m^2 ("um^2", "mm^2": the prefix is squared, as the unit is)
  decibel,         // dB (a ratio: insertion loss, extinction ratio); no prefixes
  power_level,     // dBm (power relative to 1 mW: detector sensitivity); no prefixes
  request_rate,    // req/s (requests arriving per second: a serving load)
};

std::string_view dimension_name(Dimension d);
// The SI base unit a dimension is stored in ("Hz", "s", "B/s", ...), for docs.
std::string_view dimension_base_unit(Dimension d);

// Parses "<number> <prefix><unit>" (SI prefixes f p n u m k M G T P; binary Ki Mi Gi Ti for
// data). Throws lightcode::Error (without a place; callers add it) when malformed.
double parse_quantity(std::string_view text, Dimension d);

// Formats an SI value with an engineering prefix and the dimension's base unit, e.g.
// format_quantity(9.7e9, frequency) == "9.7 GHz". Used by `hw show`.
std::string format_quantity(double value_si, Dimension d);

}  // namespace lightcode
