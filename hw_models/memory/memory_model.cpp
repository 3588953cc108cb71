#include "hw_models/memory/memory_model.hpp"

namespace lightcode::hw {
namespace {

constexpr double kBytesPerNumber = 4.0;  // the original counts energy per 32-bit number

class MemoryModel final : public HardwareModel {
 public:
  explicit MemoryModel(const MemorySpec& spec) : spec_(spec) {}

  Capabilities capabilities() const override {
    return memory_capabilities(spec_.level, spec_.clock_hz, static_cast<int64_t>(spec_.capacity_bytes));
  }
  int unit_count() const override { return 1; }

  AlgorithmList algorithms(const ir::Node& op) const override {
    AlgorithmList list;
    if (spec_.level == MemoryLevel::hbm && op.kind == ir::OpKind::memory) {
      list.add(kMemoryResident);
    } else if (spec_.level == MemoryLevel::sram &&
               (op.kind == ir::OpKind::sram_split || op.kind == ir::OpKind::sram_merge)) {
      list.add(kMemoryBookkeeping);
    }
    return list;
  }

  std::string_view algorithm_name(AlgorithmId id) const override {
    return id == kMemoryResident ? "resident" : "bookkeeping";
  }

  Cost estimate(const ir::Node& op, AlgorithmId) const override {
    Cost c;
    if (op.kind == ir::OpKind::memory) {
      c.bytes_read = ir::total_bytes(op.outputs);
      const double numbers = static_cast<double>(c.bytes_read) / kBytesPerNumber;
      c.energy = Energy::from_joules(numbers * (spec_.read_energy_j + spec_.preload_energy_j));
      c.bound = Bound::memory;
      return c;  // resident: zero time
    }
    c.time = Time::from_seconds(1.0 / spec_.clock_hz);
    c.energy = Energy::from_joules(spec_.op_energy_j);
    c.bound = Bound::latency;
    return c;
  }

  double static_power_watts() const override { return spec_.static_power_w; }

 private:
  MemorySpec spec_;
};

}  // namespace

Capabilities memory_capabilities(MemoryLevel level, double clock_hz, int64_t capacity_bytes) {
  Capabilities c;
  c.clock_hz = clock_hz;
  c.capacity_bytes = capacity_bytes;
  c.residence = level == MemoryLevel::hbm ? Residence::hbm : Residence::sram;
  c.role = level == MemoryLevel::hbm ? TransferRole::hbm : TransferRole::sram;
  c.category = EnergyCategory::memory;
  c.roles = memory_roles(level);
  return c;
}

std::unique_ptr<HardwareModel> make_memory_model(const MemorySpec& spec) {
  return std::make_unique<MemoryModel>(spec);
}

std::vector<AlgorithmInfo> memory_algorithms() {
  return {
      {"resident", "HBM: graph inputs (weights, tokens, KV cache) preloaded, 0 s, read energy"},
      {"bookkeeping", "SRAM: split/merge around expanded photonic products, one memory cycle"},
  };
}

}  // namespace lightcode::hw
