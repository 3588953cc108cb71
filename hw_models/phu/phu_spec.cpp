#include "hw_models/phu/phu_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace lightcode::hw {
namespace {

const ParamTable& converter_params() {
  static const ParamTable table{"phu.converter",
                                "A PHU's DAC (operands in) or ADC (results out), per core.",
                                {
                                    Param::quantity("latency", Dimension::duration)
                                        .fallback("0 s")
                                        .doc("pipeline latency added once per task"),
                                    Param::quantity("sample_rate", Dimension::sample_rate)
                                        .fallback("0 S/s")
                                        .doc("samples per second per converter (0: unlimited)"),
                                    Param::quantity("energy_per_sample", Dimension::energy)
                                        .fallback("0 pJ")
                                        .doc("energy per number converted"),
                                    Param::count("count", limits::kUnitCount)
                                        .fallback("1")
                                        .doc("converters per core working in parallel"),
                                }};
  return table;
}

}  // namespace

const ParamTable& phu_params() {
  static const ParamTable table{
      "phu",
      "A photonic unit (`family: phu`): WDM-multiplexed cores that run matrix products only, "
      "operands through "
      "DACs, results through ADCs.",
      {
          Param::meta("family").doc("`phu`"),
          Param::meta("name").doc("display name"),
          Param::count("cores", limits::kUnitCount)
              .doc("photonic cores; in the default profile they share each 2-D product (its dot products "
                   "over cores x multiplex lanes), in the lightcode profile each runs its own products, as "
                   "the original (required without `core`)"),
          Param::quantity("clock", Dimension::frequency)
              .positive()
              .doc("modulation rate: one dot-product step per wavelength per cycle (required "
                   "without `core`)"),
          Param::count("multiplex", limits::kUnitCount)
              .doc("WDM wavelengths per core: dot products in flight per cycle (required without "
                   "`core`)"),
          Param::list("device_library")
              .doc("device library files (configs/devices/*.yaml) a `core` takes its devices from"),
          Param::table("core", photonic_core_params())
              .doc("a core built from devices (none: cores x multiplex x clock and per-number "
                   "energies)"),
          Param::quantity("energy_per_mac", Dimension::energy)
              .fallback("0.04 pJ")
              .doc("optical energy per MAC (the seed's 0.04 pJ)"),
          Param::table("dac", converter_params())
              .doc("digital-to-analog converters (absent: ideal)"),
          Param::table("adc", converter_params())
              .doc("analog-to-digital converters (absent: ideal)"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("idle or busy, charged over the makespan"),
      }};
  return table;
}

ConverterSpec parse_converter(const Params& phu, std::string_view key) {
  ConverterSpec c;
  const auto n = phu.table_if(key);
  if (!n) return c;
  c.latency_s = n->quantity("latency");
  c.sample_rate = n->quantity("sample_rate");
  c.energy_per_sample_j = n->quantity("energy_per_sample");
  c.count = static_cast<int>(n->count("count"));
  return c;
}

namespace {

// The keys a device-built core derives, each required without one.
constexpr const char* kDerivedKeys[] = {"cores", "clock", "multiplex"};

// A device-built PHU: one unit (its tiles and cores share each product), the core's clock,
// and the core's static power; its cost model is the core's (phu_device_model.cpp).
PhuSpec device_built(const Params& p) {
  for (const char* key : kDerivedKeys) {
    if (p.has(key)) p.at(key).fail(std::string("'") + key + "' is derived from `core`: remove it");
  }
  if (!p.has("device_library"))
    p.node().fail("a `core` takes its devices from a `device_library`: name its files");
  const DeviceLibrary library = DeviceLibrary::load(p.list("device_library"));
  auto core =
      std::make_shared<const PhotonicCore>(parse_photonic_core(*p.table_if("core"), library));
  PhuSpec s;
  s.name = p.text_if("name").value_or("");
  s.cores = 1;
  s.clock_hz = core->clock_hz;
  s.static_power_w = core->static_power_w();
  s.core = std::move(core);
  return s;
}

}  // namespace

const Params& require_per_number_phu(const Params& p) {
  if (p.has("core"))
    p.at("core").fail("the lightcode profile's PHU has per-number constants, no device-built core");
  if (p.has("device_library"))
    p.at("device_library").fail("a device library is used by a `core` only");
  for (const char* key : kDerivedKeys) {
    if (!p.has(key))
      p.node().fail(std::string("missing key '") + key + "' (required without `core`)");
  }
  return p;
}

PhuSpec parse_phu_spec(const Params& p) {
  if (p.has("core")) return device_built(p);
  require_per_number_phu(p);
  PhuSpec s;
  s.name = p.text_if("name").value_or("");
  s.cores = static_cast<int>(p.count("cores"));
  s.clock_hz = p.quantity("clock");
  s.multiplex = static_cast<int>(p.count("multiplex"));
  s.energy_per_mac_j = p.quantity("energy_per_mac");
  s.dac = parse_converter(p, "dac");
  s.adc = parse_converter(p, "adc");
  s.static_power_w = p.quantity("static_power");
  return s;
}

PhuSpec parse_phu_spec(const ConfigNode& node) {
  ConfigUsage usage;
  return parse_phu_spec(Params(node, phu_params(), usage));
}

std::vector<std::string> phu_spec_summary(const ConfigNode& node) {
  const PhuSpec s = parse_phu_spec(node);
  if (s.core) {
    std::vector<std::string> out = photonic_core_summary(*s.core);
    out.push_back(
        "cost model     one unit: every tile and core shares each product (event counts)");
    return out;
  }
  std::vector<std::string> out;
  out.push_back("photonic MAC/s " +
                format_quantity(s.cores * s.multiplex * s.clock_hz, Dimension::mac_rate) + " (" +
                std::to_string(s.cores) + " cores x " + std::to_string(s.multiplex) +
                " wavelengths x " + format_quantity(s.clock_hz, Dimension::frequency) + ")");
  for (const auto& [name, c] :
       {std::pair<const char*, ConverterSpec>{"DAC", s.dac}, {"ADC", s.adc}}) {
    out.push_back(std::string(name) + "            " +
                  (c.sample_rate > 0
                       ? format_quantity(c.sample_rate * c.count, Dimension::sample_rate)
                       : std::string("unlimited rate")) +
                  ", " + format_quantity(c.energy_per_sample_j, Dimension::energy) +
                  "/sample, latency " + format_quantity(c.latency_s, Dimension::duration));
  }
  return out;
}

}  // namespace lightcode::hw
