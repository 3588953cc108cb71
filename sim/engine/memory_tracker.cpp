#include "sim/engine/memory_tracker.hpp"

#include <algorithm>

namespace lightcode::engine {

MemoryTracker::MemoryTracker(const hw::System& system, bool spill, size_t tasks)
    : spill_(spill), bytes_(tasks, 0), remaining_(tasks, 0), where_(tasks, Residence::none) {
  const hw::UnitType staging = system.role_unit(hw::Role::staging);
  if (staging >= 0) sram_capacity_ = system.model(staging).capabilities().capacity_bytes;
}

bool MemoryTracker::produced(int32_t task, const opt::Task& t, size_t consumers, Residence where, Time now) {
  const auto i = static_cast<size_t>(task);
  if (where == Residence::none) return true;
  const int64_t bytes = ir::total_bytes(t.outputs);
  if (where == Residence::sram && sram_capacity_ > 0 && sram_ + bytes > sram_capacity_) {
    if (!spill_) {
      error_ = "SRAM overflow at " + std::to_string(now.count_ps()) + " ps: task " + std::to_string(task) + " '" + t.name +
               "' needs " + std::to_string(bytes) + " B with " + std::to_string(sram_) + " of " +
               std::to_string(sram_capacity_) + " B in use (set the engine's SRAM spill option to spill to HBM)";
      return false;
    }
    where = Residence::hbm;
    ++spills_;
  }
  bytes_[i] = bytes;
  where_[i] = where;
  // Graph inputs and graph outputs stay resident.
  remaining_[i] = (t.kind == ir::OpKind::memory || consumers == 0) ? -1 : static_cast<int32_t>(consumers);
  (where == Residence::sram ? sram_ : hbm_) += bytes;
  sram_peak_ = std::max(sram_peak_, sram_);
  hbm_peak_ = std::max(hbm_peak_, hbm_);
  sample(now);
  return true;
}

void MemoryTracker::consumed(int32_t producer, Time now) {
  const auto i = static_cast<size_t>(producer);
  if (i >= remaining_.size() || remaining_[i] <= 0) return;
  if (--remaining_[i] > 0) return;
  (where_[i] == Residence::sram ? sram_ : hbm_) -= bytes_[i];
  sample(now);
}

void MemoryTracker::sample(Time now) {
  if (!samples_.empty() && samples_.back().time == now) {
    samples_.back() = MemorySample{now, sram_, hbm_};
  } else {
    samples_.push_back(MemorySample{now, sram_, hbm_});
  }
}

void MemoryTracker::finish(EventResult& out) {
  out.memory = samples_;
  out.sram_spills = spills_;
  out.sram_peak_bytes = sram_peak_;
  out.hbm_peak_bytes = hbm_peak_;
}

}  // namespace lightcode::engine
