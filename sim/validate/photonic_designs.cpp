#include "sim/validate/photonic_designs.hpp"

#include <filesystem>

#include "hw_models/phu/photonic_core.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "sim/core/config.hpp"
#include "sim/core/error.hpp"

namespace lightcode::validate {
namespace {


void add_breakdown(results::PhotonicDesignFile& out, const std::string& design,
                   const char* quantity, const std::vector<hw::BreakdownItem>& items) {
  for (const hw::BreakdownItem& i : items) {
    out.breakdown.push_back(
        results::PhotonicBreakdownRow{design, quantity, i.name, i.value, i.is_static ? 1 : 0});
  }
}

}  // namespace

results::PhotonicDesignFile photonic_designs(const std::vector<std::string>& hardware_files) {
  results::PhotonicDesignFile out;
  for (const std::string& file : hardware_files) {
    const hw::PhuSpec spec = hw::parse_phu_spec(ConfigNode::load_file(file, "hardware file"));
    if (!spec.core) {
      throw Error(file +
                  ": not a device-built PHU (no `core:` table); validate-photonic reads "
                  "device-built designs only");
    }
    const hw::PhotonicCore& c = *spec.core;
    results::PhotonicDesignRow r;
    r.design = std::filesystem::path(file).stem().string();
    r.file = file;
    r.tiles = c.tiles;
    r.cores_per_tile = c.cores_per_tile;
    r.height = c.height;
    r.width = c.width;
    r.wavelengths = c.wavelengths;
    r.input_bits = c.input_bits;
    r.weight_bits = c.weight_bits;
    r.output_bits = c.output_bits;
    r.clock_hz = c.clock_hz;
    r.peak_ops_per_s = 2.0 * c.peak_macs_per_s();  // a MAC is two operations
    r.power_w = c.total_power_w();
    r.static_power_w = c.static_power_w();
    r.area_m2 = c.total_area_m2();
    out.designs.push_back(r);
    add_breakdown(out, r.design, "power", c.power_breakdown());
    add_breakdown(out, r.design, "area", c.area_breakdown());
  }
  return out;
}

}  // namespace lightcode::validate
