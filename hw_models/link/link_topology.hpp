#pragma once
// Which links a transfer between two unit types crosses. Every link of the system's `links:`
// list is one channel per direction it carries (a bidirectional link is full duplex: two
// channels). A pair with a direct link uses it; otherwise the route goes through the relay
// unit (the system's relay memory, roles.hpp: two channels, store-and-forward); from == to
// uses a self-link if declared, else goes through the relay too. Without a relay (-1) such a
// pair has no route. The transfer model prices routes; the event engine queues transfers on
// their channels.
#include <string>
#include <vector>

#include "hw_models/link/link_spec.hpp"
#include "hw_models/transfer_model.hpp"

namespace lightcode::hw {

struct Channel {
  int link = 0;          // index into the links list
  UnitType src = 0;
  UnitType dst = 0;
};

class LinkTopology {
 public:
  // Throws lightcode::Error when a link names a unit not in `unit_names`. `relay` is a unit
  // type (an index into `unit_names`) or -1.
  LinkTopology(const std::vector<std::string>& unit_names, const std::vector<LinkSpec>& links,
               UnitType relay);

  const std::vector<LinkSpec>& links() const { return links_; }
  const std::vector<Channel>& channels() const { return channels_; }
  const std::vector<std::string>& unit_names() const { return names_; }
  // Channel ids in order; empty when there is no route.
  const std::vector<int>& route(UnitType from, UnitType to) const {
    return routes_[static_cast<size_t>(from) * names_.size() + static_cast<size_t>(to)];
  }
  std::string channel_name(int channel) const;  // "sram->cpu"
  UnitType relay() const { return relay_; }

 private:
  std::vector<std::string> names_;
  std::vector<LinkSpec> links_;
  std::vector<Channel> channels_;
  std::vector<std::vector<int>> routes_;  // [from * n + to]
  UnitType relay_ = -1;
};

}  // namespace lightcode::hw
