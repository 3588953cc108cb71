#pragma once
// Photonic and electronic device library (configs/devices/*.yaml). A library file maps a kind
// (`lasers:`, `modulators:`, `adcs:` ...) to named devices; every device is read through its
// kind's ParamTable, so units are checked, unknown keys and negative losses or powers are
// errors at file:line, and every declared key is parsed whether a core uses it or not.
// Values are SI: m, m^2, W, J, dB, dBm, S/s. A device's footprint is `area`, or
// `length` x `width` where the library gives those. A core refers to devices by name;
// `DeviceLibrary::get` fails at the referring key's place when the name is missing or is a
// device of another kind. A figure derived from a device alone that a double cannot hold (a
// footprint length x width) is an error at the device's key.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

enum class DeviceKind {
  laser,
  micro_comb,
  modulator,
  ring_router,
  phase_shifter,
  coupler,
  y_branch,
  crossing,
  mmi,
  photodetector,
  tia,
  integrator,
  adc,
  dac,
  adder,
  buffer,
  memory_level,
};

// The library key of a kind ("lasers", "ring_routers") and its singular ("laser").
std::string_view device_kind_key(DeviceKind kind);
std::string_view device_kind_noun(DeviceKind kind);

struct Device {
  std::string name;
  DeviceKind kind = DeviceKind::laser;
  std::string where;  // "file:line" of its entry
  ConfigNode entry;   // its mapping in the library, for errors at a key
  double area_m2 = 0.0;
  double length_m = 0.0;
  double width_m = 0.0;
  double insertion_loss_db = 0.0;
  double static_power_w = 0.0;        // drawn whether or not it computes (ring tuning, leakage)
  double power_w = 0.0;               // drawn while it runs at its rate (PD, TIA, adder, buffer)
  double energy_per_bit_j = 0.0;      // modulators
  double extinction_ratio_db = 0.0;   // modulators; 0: not given
  double wall_plug_efficiency = 0.0;  // lasers
  double sensitivity_dbm = 0.0;       // photodetectors
  int bits = 0;                       // converters: the reference point of the scaling law
  double sample_rate = 0.0;
  std::string law;               // converters: "sar" or "capacitive"
  double access_energy_j = 0.0;  // memory levels: per access of access_bytes
  double access_bytes = 0.0;
  double capacity_bytes = 0.0;  // buffers

  // Throws lightcode::Error at `key` of this device's entry (at the entry when the key is
  // absent, a default), naming the device: "<noun> '<name>': <message>".
  [[noreturn]] void fail(std::string_view key, const std::string& message) const;
};

class DeviceLibrary {
 public:
  // Loads every file of `files`, each a path relative to the file it is written in.
  // A device name defined twice (in one kind or across kinds) is an error at the second.
  static DeviceLibrary load(const std::vector<ConfigNode>& files);
  // Parses one library document (tests, and `load`).
  void add(const ConfigNode& document);
  // The device `ref` names; `ref` is the referring config value (its place goes in errors).
  const Device& get(DeviceKind kind, const ConfigNode& ref) const;
  const std::map<std::string, Device>& devices() const { return devices_; }

 private:
  std::map<std::string, Device> devices_;
  std::vector<std::string> files_;
};

// The library file's table (docs/CONFIG.md) and its nested per-kind tables.
const ParamTable& device_library_params();

}  // namespace lightcode::hw
