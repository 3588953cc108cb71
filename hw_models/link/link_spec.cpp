#include "hw_models/link/link_spec.hpp"

namespace lightcode::hw {

LinkSpec parse_link_spec(const ConfigNode& node) {
  node.allow_only({"src", "dst", "latency", "bandwidth", "energy_per_bit", "bidirectional"});
  LinkSpec l;
  l.where = node.place();
  l.src = node.string("src");
  l.dst = node.string("dst");
  if (l.src.empty()) node.at("src").fail("expected a unit name");
  if (l.dst.empty()) node.at("dst").fail("expected a unit name");
  l.latency_s = node.non_negative_quantity_or("latency", Dimension::duration, 0.0);
  l.bandwidth = node.non_negative_quantity_or("bandwidth", Dimension::bandwidth, 0.0);
  l.energy_per_bit_j =
      node.non_negative_quantity_or("energy_per_bit", Dimension::energy_per_bit, 0.0);
  if (node.has("bidirectional")) l.bidirectional = node.boolean("bidirectional");
  return l;
}

std::vector<LinkSpec> parse_links(const ConfigNode& list) {
  std::vector<LinkSpec> links;
  if (list.is_null()) return links;
  if (!list.is_list())
    list.fail("expected a list of links, e.g. [{src: cpu, dst: sram, latency: 1 ns}]");
  for (size_t i = 0; i < list.size(); ++i) {
    const ConfigNode entry = list[i];
    LinkSpec l = parse_link_spec(entry);
    // Two links for one direction would make the route ambiguous.
    for (const LinkSpec& o : links) {
      const bool same = o.src == l.src && o.dst == l.dst;
      const bool reverse = o.src == l.dst && o.dst == l.src && (o.bidirectional || l.bidirectional);
      if (same || reverse) {
        entry.fail("a second link between '" + l.src + "' and '" + l.dst +
                   "' (the first is at line " + std::to_string(o.where.line) + ")");
      }
    }
    links.push_back(std::move(l));
  }
  return links;
}

}  // namespace lightcode::hw
