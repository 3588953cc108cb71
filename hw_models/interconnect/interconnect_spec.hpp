#pragma once
// One interconnect dimension (`family: interconnect`, under a system's `units:`): the devices it
// joins, how (topology), through which transport, and its per-device link figures:
//   topology        switch (every device one hop from every other through a switch: NVSwitch,
//                   an InfiniBand fabric, a PCIe switch), ring (each device linked to two
//                   neighbours), point_to_point (a direct link between every pair: an NVLink
//                   bridge between two cards);
//   transport       nvlink | pcie | network: which fitted constants apply (interconnect_fit.hpp;
//                   NCCL's transports differ in per-step software latency and achieved rate);
//   devices         devices on the dimension (a collective's ranks may not exceed it);
//   bandwidth       per direction per device (B/s), what one device can send while receiving
//                   as much (NVLink 4 on an H100: 18 links x 25 GB/s = 450 GB/s);
//   latency         per step: from one device's port to another's (through the switch, if any);
//   energy_per_bit  per bit a device puts on the dimension, delivered to the receiving device;
//   in_network_reduction  the switch reduces (NVSwitch NVLS, NVLink SHARP): switch only;
//   static_power    drawn by the dimension's switches/NICs whether busy or not (W).
// Every key is declared once in interconnect_params() with its unit, default and meaning.
#include <string>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::hw {

enum class InterconnectTopology { switched, ring, point_to_point };
enum class InterconnectTransport { nvlink, pcie, network };

struct InterconnectSpec {
  std::string name;
  InterconnectTopology topology = InterconnectTopology::switched;
  InterconnectTransport transport = InterconnectTransport::nvlink;
  int64_t devices = 2;
  double bandwidth = 0.0;  // B/s per direction per device, > 0
  double latency_s = 0.0;  // per step
  double energy_per_bit_j = 0.0;
  bool in_network_reduction = false;
  double static_power_w = 0.0;
};

const ParamTable& interconnect_params();
// Reads every key; `in_network_reduction: true` on a topology other than switch is an error at
// the key.
InterconnectSpec parse_interconnect_spec(const Params& params);
InterconnectSpec parse_interconnect_spec(const ConfigNode& node);  // with a usage record of its own
std::string_view topology_name(InterconnectTopology t);    // "switch", "ring", "point_to_point"
std::string_view transport_name(InterconnectTransport t);  // "nvlink", "pcie", "network"
// Derived figures for `lightcode hw show`, one line each.
std::vector<std::string> interconnect_spec_summary(const ConfigNode& node);

}  // namespace lightcode::hw
