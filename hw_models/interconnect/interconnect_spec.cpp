#include "hw_models/interconnect/interconnect_spec.hpp"

#include "hw_models/interconnect/collective_cost.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::hw {

const ParamTable& interconnect_params() {
  static const ParamTable table{
      "interconnect",
      "One interconnect dimension (`family: interconnect`, under a system's `units:`): the devices "
      "it joins and its per-device link figures. It runs the collectives of a tensor-parallel group "
      "(all_reduce, all_gather, reduce_scatter) and the send/recv between pipeline stages, timed as "
      "NCCL's tuner times them: ring, tree and (on a switch that reduces) NVLS algorithms with the LL, "
      "LL128 and Simple protocols, the fastest for the size chosen "
      "(hw_models/interconnect/collective_cost.hpp; fitted constants in interconnect_fit.hpp).",
      {
          Param::meta("family").doc("`interconnect`"),
          Param::meta("name").doc("display name"),
          Param::choice("topology", {"switch", "ring", "point_to_point"})
              .required()
              .doc("switch: every device one hop from every other through a switch (NVSwitch, an "
                   "InfiniBand fabric, a PCIe switch); ring: each device linked to its two "
                   "neighbours (no tree algorithm); point_to_point: a direct link between every pair"),
          Param::choice("transport", {"nvlink", "pcie", "network"})
              .required()
              .doc("which fitted constants apply (interconnect_fit.hpp): NCCL's transports differ "
                   "in per-step software latency and in the fraction of the link rate reached"),
          Param::count("devices", limits::kParallelDegree)
              .required()
              .doc("devices on this dimension: a collective's ranks may not exceed it"),
          Param::quantity("bandwidth", Dimension::bandwidth)
              .positive()
              .required()
              .doc("per direction per device: what one device sends while receiving as much"),
          Param::quantity("latency", Dimension::duration)
              .required()
              .doc("per step of an algorithm: one device's port to another's (through the switch)"),
          Param::quantity("energy_per_bit", Dimension::energy_per_bit)
              .required()
              .doc("per bit a device puts on this dimension, delivered to the receiving device"),
          Param::boolean("in_network_reduction")
              .fallback("false")
              .doc("the switch reduces in the network (NVSwitch NVLS / NVLink SHARP): enables the "
                   "NVLS algorithm; switch topology only"),
          Param::quantity("static_power", Dimension::power)
              .fallback("0 W")
              .doc("switches and NICs, idle or busy, charged over the makespan"),
      }};
  return table;
}

std::string_view topology_name(InterconnectTopology t) {
  switch (t) {
    case InterconnectTopology::switched: return "switch";
    case InterconnectTopology::ring: return "ring";
    case InterconnectTopology::point_to_point: return "point_to_point";
  }
  return "?";
}

std::string_view transport_name(InterconnectTransport t) {
  switch (t) {
    case InterconnectTransport::nvlink: return "nvlink";
    case InterconnectTransport::pcie: return "pcie";
    case InterconnectTransport::network: return "network";
  }
  return "?";
}

InterconnectSpec parse_interconnect_spec(const Params& p) {
  InterconnectSpec s;
  s.name = p.text_if("name").value_or("");
  const std::string topology = p.choice("topology");
  s.topology = topology == "switch" ? InterconnectTopology::switched
               : topology == "ring" ? InterconnectTopology::ring
                                    : InterconnectTopology::point_to_point;
  const std::string transport = p.choice("transport");
  s.transport = transport == "nvlink" ? InterconnectTransport::nvlink
                : transport == "pcie" ? InterconnectTransport::pcie
                                      : InterconnectTransport::network;
  s.devices = p.count("devices");
  if (s.devices < 2) p.at("devices").fail("an interconnect joins at least 2 devices");
  s.bandwidth = p.quantity("bandwidth");
  s.latency_s = p.quantity("latency");
  s.energy_per_bit_j = p.quantity("energy_per_bit");
  s.in_network_reduction = p.boolean("in_network_reduction");
  if (s.in_network_reduction && s.topology != InterconnectTopology::switched)
    p.at("in_network_reduction").fail("in-network reduction needs a switch (topology: switch)");
  s.static_power_w = p.quantity("static_power");
  return s;
}

InterconnectSpec parse_interconnect_spec(const ConfigNode& node) {
  ConfigUsage usage;
  return parse_interconnect_spec(Params(node, interconnect_params(), usage));
}

std::vector<std::string> interconnect_spec_summary(const ConfigNode& node) {
  const InterconnectSpec s = parse_interconnect_spec(node);
  const int ranks = static_cast<int>(s.devices);
  constexpr int64_t kLarge = int64_t{64} << 20;  // large enough for the bandwidth term to dominate
  constexpr int64_t kSmall = int64_t{8} << 10;   // small enough for the latency term to dominate
  std::vector<std::string> lines;
  for (const int64_t bytes : {kSmall, kLarge}) {
    const CollectiveCost c = estimate_collective(s, ir::OpKind::all_reduce, bytes, ranks);
    lines.push_back("all_reduce " + format_quantity(static_cast<double>(bytes), Dimension::data) + " on " +
                    std::to_string(ranks) + " ranks: " +
                    format_quantity(c.time.seconds(), Dimension::duration) + " (" + std::string(c.algorithm->name) +
                    ", " + std::string(c.protocol->name) + "), " +
                    format_quantity(static_cast<double>(bytes) / c.time.seconds(), Dimension::bandwidth) +
                    " of buffer");
  }
  return lines;
}

}  // namespace lightcode::hw
