#include "hw_models/link/link_topology.hpp"

#include <stdexcept>

#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

int find(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

UnitType index_of(const std::vector<std::string>& names, const std::string& name, const LinkSpec& l,
                  const char* key) {
  const int i = find(names, name);
  if (i >= 0) return static_cast<UnitType>(i);
  std::string known;
  for (const std::string& u : names) known += (known.empty() ? "" : ", ") + u;
  const std::string where = l.where.str();
  throw Error((where.empty() ? "" : where + ": ") + "link " + key + " '" + name +
              "' is not a unit of the system (units: " + known + ")");
}

}  // namespace

LinkTopology::LinkTopology(const std::vector<std::string>& unit_names, const std::vector<LinkSpec>& links,
                           UnitType relay)
    : names_(unit_names), links_(links), relay_(relay) {
  const size_t n = names_.size();
  if (relay_ < -1 || relay_ >= static_cast<UnitType>(n)) {
    throw std::logic_error("relay unit type " + std::to_string(relay_) + " of " + std::to_string(n));
  }
  std::vector<int> direct(n * n, -1);  // channel id
  for (size_t i = 0; i < links_.size(); ++i) {
    const LinkSpec& l = links_[i];
    const UnitType s = index_of(names_, l.src, l, "src");
    const UnitType d = index_of(names_, l.dst, l, "dst");
    channels_.push_back(Channel{static_cast<int>(i), s, d});
    direct[static_cast<size_t>(s) * n + static_cast<size_t>(d)] = static_cast<int>(channels_.size() - 1);
    if (l.bidirectional && s != d) {
      channels_.push_back(Channel{static_cast<int>(i), d, s});
      direct[static_cast<size_t>(d) * n + static_cast<size_t>(s)] = static_cast<int>(channels_.size() - 1);
    }
  }
  routes_.resize(n * n);
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      std::vector<int>& r = routes_[a * n + b];
      if (direct[a * n + b] >= 0) {
        r = {direct[a * n + b]};
        continue;
      }
      if (relay_ < 0) continue;
      const auto m = static_cast<size_t>(relay_);
      if (a == m || b == m) continue;
      if (direct[a * n + m] >= 0 && direct[m * n + b] >= 0) r = {direct[a * n + m], direct[m * n + b]};
    }
  }
}

std::string LinkTopology::channel_name(int channel) const {
  const Channel& c = channels_[static_cast<size_t>(channel)];
  return names_[static_cast<size_t>(c.src)] + "->" + names_[static_cast<size_t>(c.dst)];
}

}  // namespace lightcode::hw
