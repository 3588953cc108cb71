#pragma once
// SRAM and HBM occupancy over simulated time. A task's outputs are allocated where its unit
// keeps them (SRAM for the PHU and SRAM bookkeeping, HBM for GPU, CPU and graph inputs) when
// it finishes, and freed when its last consumer has finished. Graph inputs (weights, tokens,
// cache) and graph outputs stay resident. The SRAM's capacity is the system's staging
// memory's (roles.hpp: photonic operands and results stay there). An allocation that would
// overflow a finite SRAM either spills to HBM (when asked) or stops the simulation with an
// error naming the task.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/system.hpp"
#include "sim/engine/event_result.hpp"
#include "sim/opt/task_graph.hpp"

namespace lightcode::engine {

using hw::Residence;

class MemoryTracker {
 public:
  MemoryTracker(const hw::System& system, bool spill, size_t tasks);

  // Returns false (and keeps the reason in error()) when SRAM would overflow without spill.
  bool produced(int32_t task, const opt::Task& t, size_t consumers, Residence where, Time now);
  void consumed(int32_t producer, Time now);
  const std::string& error() const { return error_; }
  void finish(EventResult& out);

 private:
  void sample(Time now);

  int64_t sram_capacity_ = 0;  // 0 = unlimited
  bool spill_;
  int64_t sram_ = 0, hbm_ = 0, sram_peak_ = 0, hbm_peak_ = 0, spills_ = 0;
  std::vector<int64_t> bytes_;
  std::vector<int32_t> remaining_;  // consumers still to finish; -1 = resident for good
  std::vector<Residence> where_;
  std::vector<MemorySample> samples_;
  std::string error_;
};

}  // namespace lightcode::engine
