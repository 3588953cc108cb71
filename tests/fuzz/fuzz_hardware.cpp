// Fuzz target: one hardware unit spec (configs/hardware/*.yaml): when it names a registered
// family, that family's factory builds the model in both profiles and a few ops are estimated
// (dense, batch matmul, add, softmax) and its capabilities read. Costs that cannot be represented must throw
// lightcode::Error; what is returned must have a non-negative time and a finite energy.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/registry.hpp"
#include "sim/core/config.hpp"
#include "tests/fuzz/fuzz_common.hpp"
#include "tests/support/nodes.hpp"

using namespace lightcode;

namespace {

const std::vector<ir::Node>& probe_ops() {
  static const std::vector<ir::Node> ops = [] {
    std::vector<ir::Node> v;
    v.push_back(test::op("dense", {{5, 768}, {2304, 768}}, {5, 2304}));
    v.push_back(test::op("dense", {{1400, 768}, {50257, 768}}, {1400, 50257}));
    v.push_back(test::op("matmul", {{12, 5, 64}, {12, 5, 64}}, {12, 5, 5}));
    v.push_back(
        test::op("matmul", {{32, 128, 128}, {32, 128, 128}}, {32, 128, 128}, ir::DType::float16));
    v.push_back(test::op("add", {{1, 5, 768}, {1, 5, 768}}, {1, 5, 768}));
    v.push_back(test::op("softmax", {{1, 12, 5, 5}}, {1, 12, 5, 5}));
    v.push_back(test::op("dense", {{1, 1}, {1, 1}}, {1, 1}, ir::DType::int8));
    return v;
  }();
  return ops;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = fuzz::source_dir() + "/configs/hardware";
  return fuzz::run(data, size, [](std::string_view text) {
    const ConfigNode node = ConfigNode::parse(text, "<fuzz>/unit.yaml", dir);
    if (!node.is_map() || !node.has("family") || !node.at("family").is_scalar()) return;
    const hw::FamilyInfo* family = hw::default_registry().find(node.at("family").as_string());
    if (!family) return;
    for (const hw::Profile* profile : {&hw::profile_named("default"), &hw::profile_named("lightcode")}) {
      if (!family->make || family->section == hw::Section::internal) break;
      std::unique_ptr<hw::HardwareModel> model;
      try {
        ConfigUsage usage;
        model = family->model_for(*profile)(Params(node, *family->params, usage));
      } catch (const Error&) {
        continue;  // refused in this profile; the other may accept it
      }
      fuzz::require(model != nullptr, "a factory returned no model");
      fuzz::require(model->unit_count() >= 1,
                    "a model with " + std::to_string(model->unit_count()) + " units");
      fuzz::require_finite(model->static_power_watts(), "static power");
      fuzz::require(model->static_power_watts() >= 0.0, "negative static power");
      const hw::Capabilities caps = model->capabilities();  // a memory's capacity in int64 bytes
      fuzz::require(caps.capacity_bytes >= 0, "a negative capacity");
      fuzz::require_finite(caps.clock_hz, "clock");
      for (const ir::Node& op : probe_ops()) {
        const hw::AlgorithmList algos = model->algorithms(op);
        for (int k = 0; k < algos.count; ++k) {
          const hw::AlgorithmId id = algos.ids[static_cast<size_t>(k)];
          try {
            fuzz::require_cost(model->estimate(op, id),
                               op.kind_name + " " + op.output().shape.str() + " on " +
                                   family->name + "/" + std::string(model->algorithm_name(id)) +
                                   " (" + std::string(profile->name()) + ")");
          } catch (const Error&) {
            // This op's cost is not representable on this spec; the others may be.
          }
        }
      }
    }
  });
}
