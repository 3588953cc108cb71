// `lightcode hw show` lines of a device-built photonic core: peak TOPS (a MAC is two
// operations), TOPS/W at full rate, TOPS/mm2, the link budget, the device counts and the power
// and area breakdowns. Fixed formats, so the same core prints the same bytes.
#include <cstdio>
#include <string>

#include "hw_models/phu/photonic_core.hpp"
#include "sim/core/units.hpp"

namespace lightcode::hw {

std::vector<std::string> photonic_core_summary(const PhotonicCore& c) {
  const CoreCounts n = c.counts();
  const double tops = 2.0 * c.peak_macs_per_s() / 1e12;  // a MAC is two operations
  const double watts = c.total_power_w();
  const double mm2 = c.total_area_m2() * 1e6;
  std::vector<std::string> out;
  char line[256];
  std::snprintf(
      line, sizeof line,
      "peak           %.2f TOPS (%d tiles x %d cores x %d x %d nodes x %d wavelengths x %s)", tops,
      c.tiles, c.cores_per_tile, c.height, c.width, c.wavelengths,
      format_quantity(c.clock_hz, Dimension::frequency).c_str());
  out.emplace_back(line);
  std::snprintf(line, sizeof line,
                "precision      input %d, weight %d, output %d bits; readout every <= %d cycles",
                c.input_bits, c.weight_bits, c.output_bits, c.temporal_accumulation);
  out.emplace_back(line);
  std::snprintf(line, sizeof line,
                "products       up to %d bits (a scenario's precision, else an integer dtype's): "
                "more is no candidate here, fewer runs at its own bits",
                c.max_product_bits());
  out.emplace_back(line);
  // A ratio over a zero power or area (devices given as 0 W, 0 m^2) is not a figure: "-".
  auto per = [&](double over, const char* unit) {
    if (!(over > 0.0)) return std::string("- ") + unit;
    char text[48];
    std::snprintf(text, sizeof text, "%.3g %s", tops / over, unit);
    return std::string(text);
  };
  std::snprintf(line, sizeof line, "power          %.4g W at full rate (static %.4g W); %s", watts,
                c.static_power_w(), per(watts, "TOPS/W").c_str());
  out.emplace_back(line);
  std::snprintf(line, sizeof line, "area           %.4g mm^2; %s", mm2, per(mm2, "TOPS/mm2").c_str());
  out.emplace_back(line);
  std::snprintf(line, sizeof line,
                "link budget    %.4g dB (modulation %.4g + node %.4g), laser %.4g dBm optical, "
                "%.4g mW per core",
                c.link_loss_db(), c.modulation_loss_db(), c.node_loss_db(), c.laser_optical_dbm(),
                c.laser_power_per_core_w() * 1e3);
  out.emplace_back(line);
  std::snprintf(line, sizeof line,
                "devices        %lld modulators + DACs, %lld rings, %lld nodes, %lld detectors, "
                "%lld ADC/TIA/adder",
                static_cast<long long>(n.modulators), static_cast<long long>(n.rings_powered),
                static_cast<long long>(n.nodes), static_cast<long long>(n.photodetectors),
                static_cast<long long>(n.readouts));
  out.emplace_back(line);
  out.emplace_back("power breakdown");
  for (const BreakdownItem& i : c.power_breakdown()) {
    std::snprintf(line, sizeof line, "  %-19s %10.2f mW%s", i.name.c_str(), i.value * 1e3,
                  i.is_static ? "  static" : "");
    out.emplace_back(line);
  }
  out.emplace_back("area breakdown");
  for (const BreakdownItem& i : c.area_breakdown()) {
    std::snprintf(line, sizeof line, "  %-19s %10.4f mm^2", i.name.c_str(), i.value * 1e6);
    out.emplace_back(line);
  }
  return out;
}

}  // namespace lightcode::hw
