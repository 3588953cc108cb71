// Fuzz target: a system file (configs/systems/*.yaml) in both profiles, `from:` resolving
// against the source tree's configs/systems; then a small dense op is estimated on every unit
// that runs it, and a tensor moved between every pair of unit types.
#include <cstdint>
#include <string>

#include "hw_models/system.hpp"
#include "sim/core/config.hpp"
#include "hw_models/registry.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;

namespace {

void exercise(const hw::System& system) {
  const ir::Node dense = test::op("dense", {{4, 64}, {32, 64}}, {4, 32});
  const ir::TensorType tensor{ir::Shape{4, 64}, ir::DType::float32};
  fuzz::require(system.unit_count() >= 1, "a system without units");
  for (size_t i = 0; i < system.unit_count(); ++i) {
    const auto t = static_cast<hw::UnitType>(i);
    const hw::HardwareModel& m = system.model(t);
    fuzz::require(m.unit_count() >= 1, "unit " + system.unit(t).name + " has " +
                                           std::to_string(m.unit_count()) + " instances");
    fuzz::require_finite(m.static_power_watts(), "static power of " + system.unit(t).name);
    const hw::AlgorithmList algos = m.algorithms(dense);
    for (int k = 0; k < algos.count; ++k) {
      const hw::AlgorithmId id = algos.ids[static_cast<size_t>(k)];
      try {
        fuzz::require_cost(m.estimate(dense, id), "dense on " + system.unit(t).name + "/" +
                                                      std::string(m.algorithm_name(id)));
      } catch (const Error&) {
      }
    }
  }
  // Every pair of unit types; a pair without a route is a lightcode::Error for that pair only.
  for (size_t a = 0; a < system.unit_count(); ++a) {
    for (size_t b = 0; b < system.unit_count(); ++b) {
      const auto from = static_cast<hw::UnitType>(a), to = static_cast<hw::UnitType>(b);
      try {
        fuzz::require_cost(system.transfers().estimate(tensor, from, to),
                           "transfer " + system.unit(from).name + " -> " + system.unit(to).name);
      } catch (const Error&) {
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = fuzz::source_dir() + "/configs/systems";
  for (const hw::Profile* profile : {&hw::profile_named("default"), &hw::profile_named("lightcode")}) {
    fuzz::run(data, size, [profile](std::string_view text) {
      const ConfigNode node = ConfigNode::parse(text, "<fuzz>/system.yaml", dir);
      exercise(hw::System::from_config(node, *profile));
    });
  }
  return 0;
}
