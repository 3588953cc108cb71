#include "hw_models/link/link_transfer_model.hpp"

#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {

constexpr double kBitsPerByte = 8.0;

struct Route {
  double latency_s = 0.0;
  double seconds_per_byte = 0.0;
  double joules_per_bit = 0.0;
  int hops = 0;  // 0 = no route
};

Route hop(const LinkSpec& l) {
  return {l.latency_s, l.bandwidth > 0.0 ? 1.0 / l.bandwidth : 0.0, l.energy_per_bit_j, 1};
}

Route chain(const Route& a, const Route& b) {
  return {a.latency_s + b.latency_s, a.seconds_per_byte + b.seconds_per_byte,
          a.joules_per_bit + b.joules_per_bit, a.hops + b.hops};
}

class LinkTransferModel final : public TransferModel {
 public:
  LinkTransferModel(const std::vector<std::string>& names, const std::vector<LinkSpec>& links)
      : names_(names), n_(names.size()), table_(n_ * n_) {
    std::vector<Route> direct(n_ * n_);
    for (const LinkSpec& l : links) {
      const size_t s = index_of(l.src, l, "src");
      const size_t d = index_of(l.dst, l, "dst");
      direct[s * n_ + d] = hop(l);
      if (l.bidirectional) direct[d * n_ + s] = hop(l);
    }
    const int sram = find("sram");
    for (size_t a = 0; a < n_; ++a) {
      for (size_t b = 0; b < n_; ++b) {
        Route& r = table_[a * n_ + b];
        r = direct[a * n_ + b];
        if (r.hops > 0 || sram < 0) continue;
        const auto m = static_cast<size_t>(sram);
        if (a == m || b == m) continue;
        const Route& in = direct[a * n_ + m];
        const Route& out = direct[m * n_ + b];
        if (in.hops > 0 && out.hops > 0) r = chain(in, out);
      }
    }
  }

  Cost estimate(const ir::TensorType& tensor, UnitType from, UnitType to) const override {
    if (from < 0 || to < 0 || static_cast<size_t>(from) >= n_ || static_cast<size_t>(to) >= n_) {
      throw Error("transfer between unit types " + std::to_string(from) + " and " +
                  std::to_string(to) + ": the system has " + std::to_string(n_) + " unit types");
    }
    const Route& r = table_[static_cast<size_t>(from) * n_ + static_cast<size_t>(to)];
    if (r.hops == 0) {
      throw Error("no route from '" + names_[static_cast<size_t>(from)] + "' to '" +
                  names_[static_cast<size_t>(to)] +
                  "': no direct link, and none through 'sram' (add one under `links:`)");
    }
    const int64_t bytes = tensor.bytes();
    const double move_s = static_cast<double>(bytes) * r.seconds_per_byte;
    Cost c;
    c.time = Time::from_seconds(r.latency_s + move_s);
    c.energy = Energy::from_joules(static_cast<double>(bytes) * kBitsPerByte * r.joules_per_bit);
    c.bytes_read = bytes;
    c.bytes_written = bytes;
    c.bound = move_s >= r.latency_s ? Bound::memory : Bound::latency;
    return c;
  }

 private:
  int find(const std::string& name) const {
    for (size_t i = 0; i < n_; ++i) {
      if (names_[i] == name) return static_cast<int>(i);
    }
    return -1;
  }

  size_t index_of(const std::string& name, const LinkSpec& l, const char* key) const {
    const int i = find(name);
    if (i >= 0) return static_cast<size_t>(i);
    std::string known;
    for (const std::string& u : names_) known += (known.empty() ? "" : ", ") + u;
    const std::string where = l.where.str();
    throw Error((where.empty() ? "" : where + ": ") + "link " + key + " '" + name +
                "' is not a unit of the system (units: " + known + ")");
  }

  std::vector<std::string> names_;
  size_t n_;
  std::vector<Route> table_;  // [from * n + to]
};

}  // namespace

std::unique_ptr<TransferModel> make_link_transfer_model(const std::vector<std::string>& unit_names,
                                                        const std::vector<LinkSpec>& links) {
  return std::make_unique<LinkTransferModel>(unit_names, links);
}

}  // namespace lightcode::hw
