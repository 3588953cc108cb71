#pragma once
// SystemC base of every unit that serves one task at a time (CPU core, PHU core, SRAM, HBM,
// the start pseudo-unit): start() occupies it for the task's service time, which the engine
// takes from the same pure cost model the selector used; when the time has passed the unit
// reports to its TaskSink. A `busy` signal is traced to VCD when asked.
#include <systemc>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw_models/unit_modules.hpp"

namespace lightcode::hw {

// The kernel runs at 1 ps resolution (set before any sc_time exists), so a Time is an sc_time
// value as it is: no floating point on the way.
inline sc_core::sc_time to_sc_time(Time t) {
  return sc_core::sc_time::from_value(static_cast<sc_core::sc_time::value_type>(t.count_ps()));
}
inline Time sc_now() { return Time::ps(static_cast<int64_t>(sc_core::sc_time_stamp().value())); }
// Notifies `e` after `delay` (a delta cycle when 0). A negative delay would wrap to a time
// centuries ahead (sc_time is unsigned) and keep the kernel busy: it is a bug, and throws.
inline void notify_after(sc_core::sc_event& e, Time delay) {
  if (delay < Time::zero()) throw std::logic_error("notify_after: negative delay " + std::to_string(delay.count_ps()) + " ps");
  if (delay == Time::zero()) {
    e.notify(sc_core::SC_ZERO_TIME);
  } else {
    e.notify(to_sc_time(delay));
  }
}

class ServiceUnit : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ServiceUnit);
  ServiceUnit(const sc_core::sc_module_name& name, TaskSink& sink, int32_t unit_type, int32_t instance);

  bool idle() const { return task_ < 0; }
  // Precondition: idle(). Zero-length tasks finish one delta cycle later. `cost` is the
  // task's, for what a unit records beside its busy time (a PHU core: conversion).
  void start(int32_t task, Time service, const Cost& cost = {});
  // Adds `busy` (and a unit's own signals) to a VCD waveform; signals are driven from then on.
  virtual void trace_to(sc_core::sc_trace_file* vcd);
  virtual Time conversion() const { return Time::zero(); }
  Time busy_time() const { return busy_; }
  int64_t tasks() const { return tasks_; }
  // Signals are driven only when traced (VCD): writing them costs kernel updates.
  void trace_signals() { traced_ = true; }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> busy;

 protected:
  virtual void on_start(int32_t /*task*/, Time /*service*/, const Cost& /*cost*/) {}
  bool traced_ = false;

 private:
  void finish();

  TaskSink& sink_;
  int32_t unit_type_;
  int32_t instance_;
  int32_t task_ = -1;
  Time busy_;
  int64_t tasks_ = 0;
  sc_core::sc_event done_;
};

// The modules of a unit type whose instances are `Unit`s (ServiceUnit or a subclass with the
// same constructor), named <unit><index>.
template <class Unit>
class ServiceModules final : public UnitModules {
 public:
  explicit ServiceModules(const ModuleContext& c) {
    for (int k = 0; k < c.instances; ++k) {
      units_.push_back(std::make_unique<Unit>((c.name + std::to_string(k)).c_str(), c.sink, c.unit_type, k));
    }
  }
  void start(int32_t instance, int32_t task, const ir::Node&, const ir::FusedKernel*, AlgorithmId,
             const Cost& cost) override {
    units_[static_cast<size_t>(instance)]->start(task, cost.time, cost);
  }
  bool reads_op() const override { return false; }
  void trace(sc_core::sc_trace_file* vcd) override {
    for (auto& u : units_) u->trace_to(vcd);
  }
  Time conversion() const override {
    Time sum;
    for (const auto& u : units_) sum = sum.plus(u->conversion(), "a unit's conversion-bound time");
    return sum;
  }

 private:
  std::vector<std::unique_ptr<Unit>> units_;
};

}  // namespace lightcode::hw
