#include "hw_models/interconnect/interconnect_model.hpp"

#include <charconv>
#include <string>

#include "hw_models/interconnect/collective_cost.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

[[noreturn]] void reject(const ir::Node& op, const std::string& why) {
  throw Error("op '" + op.name + "' (" + std::string(ir::op_kind_name(op.kind)) + "): " + why);
}

class InterconnectModel final : public HardwareModel {
 public:
  explicit InterconnectModel(const InterconnectSpec& spec) : spec_(spec) {}

  Capabilities capabilities() const override {
    Capabilities c;
    c.residence = Residence::hbm;  // a collective's result lands in the devices' memory
    c.category = EnergyCategory::compute;  // unused: the energy is split (EnergyPart::communication)
    return c;
  }
  int unit_count() const override { return 1; }

  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (ir::is_collective(op.kind) && collective_ranks(op) <= spec_.devices) list.add(kCollectiveTuned);
    return list;
  }

  std::string_view algorithm_name(AlgorithmId) const override { return "collective"; }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    const CollectiveCost cc =
        estimate_collective(spec_, op.kind, collective_bytes(op), collective_ranks(op), op.name);
    Cost c;
    c.time = cc.time;
    c.energy = cc.energy;
    c.parts[EnergyPart::communication] = cc.energy;
    c.bytes_read = cc.link_bytes;
    c.bytes_written = cc.link_bytes;
    c.bound = cc.latency_s >= cc.transfer_s ? Bound::latency : Bound::memory;  // memory: link bandwidth
    return c;
  }

  double static_power_watts() const override { return spec_.static_power_w; }

 private:
  InterconnectSpec spec_;
};

}  // namespace

int64_t collective_ranks(const ir::Node& op) {
  const std::string_view text = op.attr("ranks");
  if (text.empty()) reject(op, "no `ranks` attribute (the group's size)");
  int64_t ranks = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ranks);
  if (ec != std::errc() || end != text.data() + text.size())
    reject(op, "`ranks` is '" + std::string(text) + "', not an integer");
  if (ranks < 2) reject(op, "`ranks` is " + std::to_string(ranks) + ": a collective needs at least 2");
  return ranks;
}

int64_t collective_bytes(const ir::Node& op) {
  if (op.input_types.size() != 1 || op.outputs.size() != 1)
    reject(op, "a collective has one input and one output, this has " + std::to_string(op.input_types.size()) +
                   " and " + std::to_string(op.outputs.size()));
  return op.kind == ir::OpKind::all_gather ? op.outputs[0].bytes() : op.input_types[0].bytes();
}

std::unique_ptr<HardwareModel> make_interconnect_model(const InterconnectSpec& spec) {
  return std::make_unique<InterconnectModel>(spec);
}

std::vector<AlgorithmInfo> interconnect_algorithms() {
  return {{"collective",
           "all_reduce, all_gather, reduce_scatter, send_recv: the registered algorithm (ring, tree, nvls, p2p) "
           "and protocol (LL, LL128, Simple) with the least predicted time, as NCCL's tuner picks"}};
}

}  // namespace lightcode::hw
