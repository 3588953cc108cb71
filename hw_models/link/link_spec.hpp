#pragma once
// A link between two units of a system (entries of the system's `links:` list):
//   - {src: cpu, dst: sram, latency: 0.1667 ns, bandwidth: 100 GB/s, energy_per_bit: 0.4375 pJ/bit,
//      bidirectional: true}
// Every key is declared once in link_params() (link_spec.cpp) with its unit, default and
// meaning; bandwidth 0 means unlimited. A link from a unit to itself (src == dst) says how data moves between two tasks on
// that unit type (e.g. a GPU keeps it in HBM: a free self-link). Transfers between units
// without a direct link route through SRAM; shared links serialise transfers in the event
// engine.
#include <string>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

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

const ParamTable& link_params();
LinkSpec parse_link_spec(const Params& params);
// The entries of a system's `links:` (a param of `tables` kind), with duplicates rejected.
std::vector<LinkSpec> parse_links(const Params& system, std::string_view key);
std::vector<LinkSpec> parse_links(const ConfigNode& list);  // a bare list, for tests and tools

}  // namespace lightcode::hw
