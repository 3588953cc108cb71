#include "hw_models/link/link_spec.hpp"

namespace lightcode::hw {
namespace {

// Two links for one direction would make the route ambiguous.
std::vector<LinkSpec> checked_links(const std::vector<Params>& entries) {
  std::vector<LinkSpec> links;
  for (const Params& entry : entries) {
    LinkSpec l = parse_link_spec(entry);
    for (const LinkSpec& o : links) {
      const bool same = o.src == l.src && o.dst == l.dst;
      const bool reverse = o.src == l.dst && o.dst == l.src && (o.bidirectional || l.bidirectional);
      if (same || reverse) {
        entry.node().fail("a second link between '" + l.src + "' and '" + l.dst +
                          "' (the first is at line " + std::to_string(o.where.line) + ")");
      }
    }
    links.push_back(std::move(l));
  }
  return links;
}

}  // namespace

const ParamTable& link_params() {
  static const ParamTable table{
      "link",
      "One entry of a system's `links:`: a channel between two units. Transfers between units "
      "without a direct "
      "link route through SRAM; in the event engine with contention on, transfers queue on shared "
      "links. A link "
      "from a unit to itself says how data moves between two tasks on that unit (a GPU keeps it in "
      "HBM).",
      {
          Param::text("src").required().doc("a unit name of the system"),
          Param::text("dst").required().doc("a unit name of the system"),
          Param::quantity("latency", Dimension::duration).fallback("0 s").doc("per transfer"),
          Param::quantity("bandwidth", Dimension::bandwidth).fallback("0 B/s").doc("0: unlimited"),
          Param::quantity("energy_per_bit", Dimension::energy_per_bit)
              .fallback("0 pJ/bit")
              .doc("per bit moved"),
          Param::boolean("bidirectional")
              .fallback("true")
              .doc("whether dst -> src uses the same link"),
      }};
  return table;
}

LinkSpec parse_link_spec(const Params& p) {
  LinkSpec l;
  l.where = p.node().place();
  l.src = p.text("src");
  l.dst = p.text("dst");
  if (l.src.empty()) p.at("src").fail("expected a unit name");
  if (l.dst.empty()) p.at("dst").fail("expected a unit name");
  l.latency_s = p.quantity("latency");
  l.bandwidth = p.quantity("bandwidth");
  l.energy_per_bit_j = p.quantity("energy_per_bit");
  l.bidirectional = p.boolean("bidirectional");
  return l;
}

std::vector<LinkSpec> parse_links(const Params& system, std::string_view key) {
  return checked_links(system.tables(key));
}

std::vector<LinkSpec> parse_links(const ConfigNode& list) {
  if (list.is_null()) return {};
  if (!list.is_list())
    list.fail("expected a list of links, e.g. [{src: cpu, dst: sram, latency: 1 ns}]");
  ConfigUsage usage;
  std::vector<Params> entries;
  for (size_t i = 0; i < list.size(); ++i) entries.emplace_back(list[i], link_params(), usage);
  return checked_links(entries);
}

}  // namespace lightcode::hw
