#pragma once
// A link between two units of a system (entries of the system's `links:` list):
//   - {src: cpu, dst: sram, latency: 0.1667 ns, bandwidth: 100 GB/s, energy_per_bit: 0.4375 pJ/bit,
//      bidirectional: true}
// bandwidth 0 means unlimited; latency, bandwidth and energy_per_bit default to 0, bidirectional
// to true. A link from a unit to itself (src == dst) says how data moves between two tasks on
// that unit type (e.g. a GPU keeps it in HBM: a free self-link). Transfers between units
// without a direct link route through SRAM; shared links serialise transfers in the event
// engine.
#include <string>
#include <vector>

#include "sim/core/config.hpp"

namespace lightcode::hw {

struct LinkSpec {
  std::string src;
  std::string dst;
  double latency_s = 0.0;
  double bandwidth = 0.0;  // B/s; 0 = unlimited
  double energy_per_bit_j = 0.0;
  bool bidirectional = true;
  SourcePlace where;  // the list entry, for errors found later (an unknown unit name)
};

LinkSpec parse_link_spec(const ConfigNode& node);
std::vector<LinkSpec> parse_links(const ConfigNode& list);

}  // namespace lightcode::hw
