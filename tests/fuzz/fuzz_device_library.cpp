// Fuzz target: a photonic device library (configs/devices/*.yaml) through DeviceLibrary::add,
// then, with it as the whole library, the device-built cores of the shipped DOTA designs
// (configs/hardware/phu_dota_*.yaml): parsed, summarised as `hw show` prints them, and a few
// matrix products estimated. Every device figure and every derived figure (power and area
// breakdowns, energies per event, product costs) must be finite, and no summary line may
// print inf or nan; a figure that cannot be represented must be a lightcode::Error.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw_models/phu/devices.hpp"
#include "hw_models/phu/photonic_core.hpp"
#include "hw_models/phu/phu_model.hpp"
#include "sim/core/config.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;

namespace {

// The `core:` tables of the shipped device-built designs, read once.
const std::vector<ConfigNode>& cores() {
  static const std::vector<ConfigNode> tables = [] {
    std::vector<ConfigNode> v;
    for (const char* design : {"phu_dota_b", "phu_dota_b_8bit", "phu_dota_l"}) {
      const std::string file = fuzz::source_dir() + "/configs/hardware/" + design + ".yaml";
      v.push_back(ConfigNode::load_file(file, "hardware file").at("core"));
    }
    return v;
  }();
  return tables;
}

const std::vector<ir::Node>& products() {
  static const std::vector<ir::Node> ops = [] {
    std::vector<ir::Node> v;
    v.push_back(test::op("dense", {{5, 768}, {2304, 768}}, {5, 2304}));
    v.push_back(test::op("matmul", {{12, 128, 64}, {12, 128, 64}}, {12, 128, 128}));
    v.push_back(test::op("dense", {{1, 1}, {1, 1}}, {1, 1}));
    return v;
  }();
  return ops;
}

void check_device(const hw::Device& d) {
  const std::string at = "device '" + d.name + "' (" + d.where + ")";
  for (double v : {d.area_m2, d.length_m, d.width_m, d.insertion_loss_db, d.static_power_w, d.power_w,
                   d.energy_per_bit_j, d.extinction_ratio_db, d.wall_plug_efficiency, d.sensitivity_dbm,
                   d.sample_rate, d.access_energy_j, d.access_bytes, d.capacity_bytes}) {
    fuzz::require_finite(v, at + " figure");
  }
}

void check_core(const hw::PhotonicCore& c) {
  for (const auto& items : {c.power_breakdown(), c.area_breakdown()}) {
    for (const hw::BreakdownItem& i : items) fuzz::require_finite(i.value, "breakdown item " + i.name);
  }
  fuzz::require_finite(c.total_power_w(), "total power");
  fuzz::require_finite(c.static_power_w(), "static power");
  fuzz::require_finite(c.total_area_m2(), "total area");
  fuzz::require_finite(c.peak_macs_per_s(), "peak MAC/s");
  for (const std::string& line : hw::photonic_core_summary(c)) {
    fuzz::require(line.find("inf") == std::string::npos && line.find("nan") == std::string::npos,
                  "hw show prints '" + line + "'");
  }
  const std::unique_ptr<hw::HardwareModel> model = hw::make_device_phu_model(c);
  fuzz::require_finite(model->static_power_watts(), "the model's static power");
  for (const ir::Node& op : products()) {
    const hw::AlgorithmList algos = model->algorithms(op);
    for (int k = 0; k < algos.count; ++k) {
      try {
        fuzz::require_cost(model->estimate(op, algos.ids[static_cast<size_t>(k)]), op.kind_name + " " + op.output().shape.str());
      } catch (const Error&) {
        // This product's cost is not representable on this core; the others may be.
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = fuzz::source_dir() + "/configs/devices";
  return fuzz::run(data, size, [](std::string_view text) {
    hw::DeviceLibrary library;
    library.add(ConfigNode::parse(text, "<fuzz>/devices.yaml", dir));
    for (const auto& [name, device] : library.devices()) check_device(device);
    for (const ConfigNode& core : cores()) {
      try {
        ConfigUsage usage;
        check_core(hw::parse_photonic_core(Params(core, hw::photonic_core_params(), usage), library));
      } catch (const Error&) {
        // Refused for this design (a device it names is missing, or a figure overflows); the
        // others may accept the library.
      }
    }
  });
}
