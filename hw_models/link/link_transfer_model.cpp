#include "hw_models/link/link_transfer_model.hpp"

#include "hw_models/link/link_timing.hpp"
#include "hw_models/link/link_topology.hpp"
#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {


struct Route {
  LinkDelay delay;  // the hops as one chain (link_timing.hpp)
  double joules_per_bit = 0.0;
  int hops = 0;  // 0 = no route
};

Route then(const Route& r, const LinkSpec& l) {
  return {chain(r.delay, link_delay(l)), r.joules_per_bit + l.energy_per_bit_j, r.hops + 1};
}

class LinkTransferModel final : public TransferModel {
 public:
  LinkTransferModel(const std::vector<std::string>& names, const std::vector<LinkSpec>& links, UnitType relay)
      : names_(names), n_(names.size()), table_(n_ * n_), relay_(relay) {
    const LinkTopology topology(names, links, relay);
    for (size_t a = 0; a < n_; ++a) {
      for (size_t b = 0; b < n_; ++b) {
        Route& r = table_[a * n_ + b];
        for (int channel : topology.route(static_cast<UnitType>(a), static_cast<UnitType>(b))) {
          r = then(r, topology.links()[static_cast<size_t>(topology.channels()[static_cast<size_t>(channel)].link)]);
        }
      }
    }
  }

  Cost estimate(const ir::TensorType& tensor, UnitType from, UnitType to) const override {
    if (from < 0 || to < 0 || static_cast<size_t>(from) >= n_ || static_cast<size_t>(to) >= n_) {
      throw Error("transfer between unit types " + std::to_string(from) + " and " +
                  std::to_string(to) + ": the system has " + std::to_string(n_) + " unit types");
    }
    const Route& r = table_[static_cast<size_t>(from) * n_ + static_cast<size_t>(to)];
    // A tensor already on the unit moves nothing, unless the system declares a link from the
    // unit to itself (the GPU's own HBM traffic), which is then charged like any other.
    if (r.hops == 0 && from == to) return Cost{};
    if (r.hops == 0) {
      const std::string via = relay_ < 0 ? "and the system has no relay memory"
                                         : "and none through the relay '" + names_[static_cast<size_t>(relay_)] + "'";
      throw Error("no route from '" + names_[static_cast<size_t>(from)] + "' to '" +
                  names_[static_cast<size_t>(to)] + "': no direct link, " + via + " (add one under `links:`)");
    }
    const int64_t bytes = tensor.bytes();
    Cost c;
    c.time = link_time(r.delay, bytes);
    c.energy = Energy::from_joules(static_cast<double>(bytes) * kBitsPerByte * r.joules_per_bit);
    c.bytes_read = bytes;
    c.bytes_written = bytes;
    c.bound = static_cast<double>(bytes) * r.delay.seconds_per_byte >= r.delay.latency_s ? Bound::memory : Bound::latency;
    return c;
  }

 private:
  std::vector<std::string> names_;
  size_t n_;
  std::vector<Route> table_;  // [from * n + to]
  UnitType relay_;
};

}  // namespace

std::unique_ptr<TransferModel> make_link_transfer_model(const std::vector<std::string>& unit_names,
                                                        const std::vector<LinkSpec>& links, UnitType relay) {
  return std::make_unique<LinkTransferModel>(unit_names, links, relay);
}

}  // namespace lightcode::hw
