#include "hw_models/phu/devices.hpp"

#include <array>
#include <cmath>
#include <filesystem>

#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

Param length() {
  return Param::quantity("length", Dimension::length).required().doc("footprint along the light");
}
Param width() {
  return Param::quantity("width", Dimension::length).required().doc("footprint across the light");
}
Param area() {
  return Param::quantity("area", Dimension::area).required().doc("footprint");
}
Param loss() {
  return Param::quantity("insertion_loss", Dimension::decibel)
      .required()
      .doc("insertion loss on the light path");
}
Param static_power(const char* fallback) {
  return Param::quantity("static_power", Dimension::power)
      .fallback(fallback)
      .doc("drawn whether or not it computes");
}
Param power() {
  return Param::quantity("power", Dimension::power)
      .required()
      .doc("drawn while it runs at the core clock");
}
Param bandwidth() {
  return Param::quantity("bandwidth", Dimension::frequency)
      .positive()
      .doc("electro-optic bandwidth (none: not given)");
}

ParamTable kind_table(const char* name, const char* doc, std::vector<Param> params) {
  return ParamTable{std::string("device.") + name, doc, std::move(params)};
}

// A converter at its reference point; `law` scales its power to a core's bits and clock.
ParamTable converter_table(const char* name, const char* what, Param law) {
  return kind_table(
      name,
      (std::string(what) + " at its reference point; the law scales its power to a core's bits "
                           "and clock.")
          .c_str(),
      {std::move(law),
       Param::count("bits", limits::kUnitCount)
           .required()
           .doc("reference resolution (the most it resolves)"),
       power(),
       Param::quantity("sample_rate", Dimension::sample_rate)
           .positive()
           .required()
           .doc("reference sample rate"),
       area()});
}

struct KindInfo {
  DeviceKind kind;
  const char* key;
  const char* noun;
  const ParamTable* table;
};

const std::array<KindInfo, 17>& kinds() {
  static const ParamTable laser = kind_table(
      "laser", "A laser source: its electrical power follows from the core's link budget.",
      {Param::fraction("wall_plug_efficiency").required().doc("optical out / electrical in"),
       Param::quantity("insertion_loss", Dimension::decibel)
           .fallback("0 dB")
           .doc("coupling loss into the chip"),
       length(), width()});
  static const ParamTable comb =
      kind_table("micro_comb", "A micro-comb (WDM carrier source).", {length(), width()});
  static const ParamTable modulator =
      kind_table("modulator", "An electro-optic modulator (MZM): one per modulated channel.",
                 {Param::quantity("energy_per_bit", Dimension::energy_per_bit)
                      .required()
                      .doc("switching energy per bit"),
                  static_power("0 W"), loss(),
                  Param::quantity("extinction_ratio", Dimension::decibel)
                      .positive()
                      .doc("on/off ratio (none: not given)"),
                  bandwidth(), length(), width()});
  static const ParamTable ring =
      kind_table("ring_router", "A micro-ring (de)multiplexer: thermally tuned, so static power.",
                 {static_power("0 W"), loss(), length(), width()});
  static const ParamTable shifter = kind_table(
      "phase_shifter", "A phase shifter (MEMS, thermo-optic, ITO).",
      {static_power("0 W"),
       Param::quantity("p_pi", Dimension::power).doc("power for a pi shift (none: not given)"),
       Param::quantity("response_time", Dimension::duration).doc("settling time (none: not given)"),
       loss(), length(), width()});
  static const ParamTable coupler =
      kind_table("coupler", "A 2x2 directional coupler.", {loss(), length(), width()});
  static const ParamTable y_branch =
      kind_table("y_branch", "A 1x2 Y-branch splitter.", {loss(), length(), width()});
  static const ParamTable crossing = kind_table("crossing", "A waveguide crossing.",
                                                {loss(),
                                                 Param::quantity("crosstalk", Dimension::decibel)
                                                     .signed_()
                                                     .doc("crosstalk (none: not given)"),
                                                 length(), width()});
  static const ParamTable mmi =
      kind_table("mmi", "A multi-mode interference splitter.",
                 {loss(), Param::count("ports", limits::kUnitCount).required().doc("output ports"),
                  length(), width()});
  static const ParamTable detector = kind_table(
      "photodetector", "A photodetector: its sensitivity sets the laser power.",
      {Param::quantity("power", Dimension::power)
           .fallback("0 W")
           .doc("drawn while it runs at the core clock"),
       static_power("0 W"),
       Param::quantity("sensitivity", Dimension::power_level)
           .signed_()
           .required()
           .doc("least detectable power"),
       Param::meta("responsivity").doc("photocurrent per optical power (\"1 A/W\"; informational)"),
       bandwidth(), length(), width()});
  static const ParamTable tia = kind_table("tia", "A transimpedance amplifier.", {power(), area()});
  static const ParamTable integrator =
      kind_table("integrator", "An analog integrator.", {static_power("0 W"), area()});
  static const ParamTable adc = converter_table(
      "adc", "An ADC",
      Param::choice("law", {"sar"}).required().doc("sar: power linear in bits and in sample rate"));
  static const ParamTable dac =
      converter_table("dac", "A DAC",
                      Param::choice("law", {"capacitive"})
                          .required()
                          .doc("capacitive: power ~ 2^b / b, linear in sample rate"));
  static const ParamTable adder =
      kind_table("adder", "A digital partial-sum adder.", {power(), area()});
  static const ParamTable buffer = kind_table(
      "buffer", "An on-chip SRAM buffer (power as its source gives it, counted as static).",
      {Param::quantity("capacity", Dimension::data).positive().required().doc("bytes held"),
       power(), area()});
  static const ParamTable level = kind_table(
      "memory_level", "A level of the memory hierarchy, by its access energy.",
      {Param::quantity("access_energy", Dimension::energy).required().doc("energy per access"),
       Param::quantity("access_size", Dimension::data)
           .positive()
           .required()
           .doc("bytes per access")});
  static const std::array<KindInfo, 17> all{{
      {DeviceKind::laser, "lasers", "laser", &laser},
      {DeviceKind::micro_comb, "micro_combs", "micro-comb", &comb},
      {DeviceKind::modulator, "modulators", "modulator", &modulator},
      {DeviceKind::ring_router, "ring_routers", "ring router", &ring},
      {DeviceKind::phase_shifter, "phase_shifters", "phase shifter", &shifter},
      {DeviceKind::coupler, "couplers", "coupler", &coupler},
      {DeviceKind::y_branch, "y_branches", "Y-branch", &y_branch},
      {DeviceKind::crossing, "crossings", "crossing", &crossing},
      {DeviceKind::mmi, "mmis", "MMI", &mmi},
      {DeviceKind::photodetector, "photodetectors", "photodetector", &detector},
      {DeviceKind::tia, "tias", "TIA", &tia},
      {DeviceKind::integrator, "integrators", "integrator", &integrator},
      {DeviceKind::adc, "adcs", "ADC", &adc},
      {DeviceKind::dac, "dacs", "DAC", &dac},
      {DeviceKind::adder, "adders", "adder", &adder},
      {DeviceKind::buffer, "buffers", "buffer", &buffer},
      {DeviceKind::memory_level, "memory_levels", "memory level", &level},
  }};
  return all;
}

const KindInfo& kind_info(DeviceKind kind) {
  return kinds()[static_cast<size_t>(kind)];
}

// Reads every key the kind declares (so nothing in a library is unread).
Device parse_device(const std::string& name, DeviceKind kind, const Params& p) {
  Device d;
  d.name = name;
  d.kind = kind;
  const SourcePlace& at = p.node().place();
  d.where = at.file + ":" + std::to_string(at.line);
  d.entry = p.node();
  const ParamTable& t = p.table();
  auto q = [&](const char* key, double& out) {
    if (t.find(key)) out = p.quantity_if(key).value_or(0.0);
  };
  q("length", d.length_m);
  q("width", d.width_m);
  q("area", d.area_m2);
  if (!t.find("area")) {
    d.area_m2 = d.length_m * d.width_m;
    if (!std::isfinite(d.area_m2)) d.fail("width", "its footprint, length x width, is beyond a double (above 1.8e308 m^2)");
  }
  q("insertion_loss", d.insertion_loss_db);
  q("static_power", d.static_power_w);
  q("power", d.power_w);
  q("energy_per_bit", d.energy_per_bit_j);
  q("extinction_ratio", d.extinction_ratio_db);
  q("wall_plug_efficiency", d.wall_plug_efficiency);
  q("sensitivity", d.sensitivity_dbm);
  q("sample_rate", d.sample_rate);
  q("access_energy", d.access_energy_j);
  q("access_size", d.access_bytes);
  q("capacity", d.capacity_bytes);
  double ignored = 0.0;  // informational keys: parsed for their units, used by no model yet
  q("bandwidth", ignored);
  q("p_pi", ignored);
  q("response_time", ignored);
  q("crosstalk", ignored);
  if (t.find("ports")) p.count("ports");
  if (t.find("bits")) d.bits = static_cast<int>(p.count("bits"));
  if (t.find("law")) d.law = p.choice("law");
  if (t.find("responsivity")) p.mark("responsivity");
  return d;
}

}  // namespace

void Device::fail(std::string_view key, const std::string& message) const {
  const std::string text = std::string(device_kind_noun(kind)) + " '" + name + "': " + message;
  if (const auto n = entry.find(key)) n->fail(text);
  entry.fail(text);
}

std::string_view device_kind_key(DeviceKind kind) {
  return kind_info(kind).key;
}
std::string_view device_kind_noun(DeviceKind kind) {
  return kind_info(kind).noun;
}

const ParamTable& device_library_params() {
  static const ParamTable table = [] {
    ParamTable t{"devices",
                 "A device library file (configs/devices/*.yaml): per kind, a mapping of device "
                 "names to their "
                 "figures. A core names the devices it is built from.",
                 {Param::meta("description").doc("what the file holds")}};
    for (const KindInfo& k : kinds()) {
      t.params.push_back(Param::named(k.key, k.table).doc(std::string(k.noun) + "s by name"));
    }
    return t;
  }();
  return table;
}

void DeviceLibrary::add(const ConfigNode& document) {
  ConfigUsage usage;
  const Params lib(document, device_library_params(), usage);
  files_.push_back(document.file());
  for (const KindInfo& k : kinds()) {
    for (const auto& [name, entry] : lib.named(k.key)) {
      if (const auto it = devices_.find(name); it != devices_.end()) {
        entry.node().fail("device '" + name + "' is already defined at " + it->second.where);
      }
      devices_.emplace(name, parse_device(name, k.kind, entry));
    }
  }
}

DeviceLibrary DeviceLibrary::load(const std::vector<ConfigNode>& files) {
  DeviceLibrary lib;
  for (const ConfigNode& f : files) {
    const std::filesystem::path base = std::filesystem::path(f.file()).parent_path();
    const std::string path = (base / f.as_string()).lexically_normal().string();
    try {
      lib.add(ConfigNode::load_file(path, "device library"));
    } catch (const Error& e) {
      if (e.where().line > 0) throw;  // an error inside the library names its own line
      f.fail(e.what());               // the file itself cannot be read: say where it was named
    }
  }
  return lib;
}

const Device& DeviceLibrary::get(DeviceKind kind, const ConfigNode& ref) const {
  const std::string name = ref.as_string();
  const auto it = devices_.find(name);
  if (it != devices_.end() && it->second.kind == kind) return it->second;
  std::string known;
  for (const auto& [n, d] : devices_) {
    if (d.kind == kind) known += (known.empty() ? "" : ", ") + n;
  }
  std::string files;
  for (const std::string& f : files_) files += (files.empty() ? "" : ", ") + f;
  ref.fail("no " + std::string(device_kind_noun(kind)) + " named '" + excerpt(name) +
           "' in the device library (" + (files.empty() ? std::string("no files") : files) +
           "); its " + std::string(device_kind_key(kind)) + ": " +
           (known.empty() ? std::string("none") : known));
}

}  // namespace lightcode::hw
