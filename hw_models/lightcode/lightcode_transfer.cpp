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

// Direct links of the original, a -> b, summed in the reference's order (so the figures are
// bit-identical to its constants: 12+1+1, 1.6+1+1+12, ...).
Hop direct(TransferRole a, TransferRole b, const LightcodeTransferFigures& f) {
  using R = TransferRole;
  constexpr double kTerm = lc::kCoreLinkTermPj;
  if (a == R::hbm && b == R::sram) return {f.sram_cycle_s, f.hbm_read_pj + f.sram_write_pj, true};
  if (a == R::sram && b == R::hbm)
    return {lc::kHbmWriteSeconds, f.sram_read_pj + f.hbm_write_pj, true};
  if (a == R::sram && (b == R::cpu || b == R::gpu))
    return {f.sram_cycle_s, f.sram_read_pj + kTerm + kTerm, true};
  if ((a == R::cpu || a == R::gpu) && b == R::sram)
    return {f.sram_cycle_s, kTerm + kTerm + f.sram_write_pj, true};
  if (a == R::sram && b == R::phu) {
    return {f.sram_cycle_s + lc::kPhuLinkSeconds, f.sram_read_pj + kTerm + kTerm + f.dac_pj, true};
  }
  if (a == R::phu && b == R::sram) {
    return {f.sram_cycle_s + lc::kPhuLinkSeconds, f.adc_pj + kTerm + kTerm + f.sram_write_pj, true};
  }
  return {};
}

class LightcodeTransfer final : public TransferModel {
 public:
  LightcodeTransfer(const std::vector<TransferRole>& roles, const LightcodeTransferFigures& figures)
      : n_(roles.size()) {
    table_.resize(n_ * n_);
    for (size_t a = 0; a < n_; ++a) {
      for (size_t b = 0; b < n_; ++b) table_[a * n_ + b] = route(roles[a], roles[b], figures);
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
  static Hop route(TransferRole a, TransferRole b, const LightcodeTransferFigures& f) {
    if (a == TransferRole::start) return {0.0, 0.0, true};
    if (Hop h = direct(a, b, f); h.exists) return h;
    const Hop first =
        a == TransferRole::sram ? Hop{0.0, 0.0, true} : direct(a, TransferRole::sram, f);
    const Hop second =
        b == TransferRole::sram ? Hop{0.0, 0.0, true} : direct(TransferRole::sram, b, f);
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

std::unique_ptr<TransferModel> make_lightcode_transfer(const std::vector<TransferRole>& roles,
                                                       const LightcodeTransferFigures& figures) {
  return std::make_unique<LightcodeTransfer>(roles, figures);
}

}  // namespace lightcode::hw
