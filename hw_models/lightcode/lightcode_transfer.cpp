#include "hw_models/lightcode/lightcode_transfer.hpp"

#include "hw_models/lightcode/lightcode_constants.hpp"
#include "sim/core/checked.hpp"

namespace lightcode::hw {
namespace {

struct Hop {
  double seconds = 0.0;
  double pj_per_number = 0.0;
  bool exists = false;
};

constexpr double kSramCycle = 1.0 / lc::kSramClockHz;

// Direct links of the original, a -> b.
Hop direct(TransferRole a, TransferRole b) {
  using R = TransferRole;
  if (a == R::hbm && b == R::sram) return {kSramCycle, lc::kHbmToSramPj, true};
  if (a == R::sram && b == R::hbm) return {lc::kHbmWriteSeconds, lc::kSramToHbmPj, true};
  if (a == R::sram && (b == R::cpu || b == R::gpu)) return {kSramCycle, lc::kSramToCpuPj, true};
  if ((a == R::cpu || a == R::gpu) && b == R::sram) return {kSramCycle, lc::kCpuToSramPj, true};
  if (a == R::sram && b == R::phu) return {kSramCycle + lc::kPhuLinkSeconds, lc::kSramToPhuPj, true};
  if (a == R::phu && b == R::sram) return {kSramCycle + lc::kPhuLinkSeconds, lc::kPhuToSramPj, true};
  return {};
}

class LightcodeTransfer final : public TransferModel {
 public:
  explicit LightcodeTransfer(const std::vector<TransferRole>& roles) : n_(roles.size()) {
    table_.resize(n_ * n_);
    for (size_t a = 0; a < n_; ++a) {
      for (size_t b = 0; b < n_; ++b) table_[a * n_ + b] = route(roles[a], roles[b]);
    }
  }

  Cost estimate(const ir::TensorType& tensor, UnitType from, UnitType to) const override {
    const Hop& h = table_[static_cast<size_t>(from) * n_ + static_cast<size_t>(to)];
    Cost c;
    c.time = Time::from_seconds(h.seconds);  // size-independent: the original's quirk
    c.energy = Energy::pj(static_cast<double>(tensor.shape.elements()) * h.pj_per_number);
    c.bytes_read = checked_mul(tensor.shape.elements(), 4, "the bytes of a transfer");
    c.bytes_written = c.bytes_read;
    c.bound = Bound::latency;
    return c;
  }

 private:
  static Hop route(TransferRole a, TransferRole b) {
    if (a == TransferRole::start) return {0.0, 0.0, true};
    if (Hop h = direct(a, b); h.exists) return h;
    const Hop first = a == TransferRole::sram ? Hop{0.0, 0.0, true} : direct(a, TransferRole::sram);
    const Hop second = b == TransferRole::sram ? Hop{0.0, 0.0, true} : direct(TransferRole::sram, b);
    if (!first.exists || !second.exists) {
      // Only `start` as a destination lacks a route; nothing is ever sent to it.
      return {0.0, 0.0, false};
    }
    return {first.seconds + second.seconds, first.pj_per_number + second.pj_per_number, true};
  }

  size_t n_;
  std::vector<Hop> table_;
};

}  // namespace

std::unique_ptr<TransferModel> make_lightcode_transfer(const std::vector<TransferRole>& roles) {
  return std::make_unique<LightcodeTransfer>(roles);
}

}  // namespace lightcode::hw
