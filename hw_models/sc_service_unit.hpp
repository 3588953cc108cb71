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

// A delay of `ps` picoseconds (the kernel runs at 1 ps resolution): no floating point.
inline sc_core::sc_time sc_ps(int64_t ps) { return sc_core::sc_time::from_value(static_cast<sc_core::sc_time::value_type>(ps)); }
// Notifies `e` after `ps` (a delta cycle when 0). A negative delay would wrap to a time
// centuries ahead (sc_time is unsigned) and keep the kernel busy: it is a bug, and throws.
inline void notify_after(sc_core::sc_event& e, int64_t ps) {
  if (ps < 0) throw std::logic_error("notify_after: negative delay " + std::to_string(ps) + " ps");
  if (ps == 0) {
    e.notify(sc_core::SC_ZERO_TIME);
  } else {
    e.notify(sc_ps(ps));
  }
}

class ServiceUnit : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ServiceUnit);
  ServiceUnit(const sc_core::sc_module_name& name, TaskSink& sink, int32_t unit_type, int32_t instance);

  bool idle() const { return task_ < 0; }
  // Precondition: idle(). Zero-length tasks finish one delta cycle later. `cost` is the
  // task's, for what a unit records beside its busy time (a PHU core: conversion).
  void start(int32_t task, int64_t service_ps, const Cost& cost = {});
  // Adds `busy` (and a unit's own signals) to a VCD waveform; signals are driven from then on.
  virtual void trace_to(sc_core::sc_trace_file* vcd);
  virtual int64_t conversion_ps() const { return 0; }
  int64_t busy_ps() const { return busy_ps_; }
  int64_t tasks() const { return tasks_; }
  // Signals are driven only when traced (VCD): writing them costs kernel updates.
  void trace_signals() { traced_ = true; }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> busy;

 protected:
  virtual void on_start(int32_t /*task*/, int64_t /*service_ps*/, const Cost& /*cost*/) {}
  bool traced_ = false;

 private:
  void finish();

  TaskSink& sink_;
  int32_t unit_type_;
  int32_t instance_;
  int32_t task_ = -1;
  int64_t busy_ps_ = 0;
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
  void start(int32_t instance, int32_t task, const ir::Node&, AlgorithmId, const Cost& cost) override {
    units_[static_cast<size_t>(instance)]->start(task, cost.time.count_ps(), cost);
  }
  void trace(sc_core::sc_trace_file* vcd) override {
    for (auto& u : units_) u->trace_to(vcd);
  }
  int64_t conversion_ps() const override {
    int64_t sum = 0;
    for (const auto& u : units_) sum += u->conversion_ps();
    return sum;
  }

 private:
  std::vector<std::unique_ptr<Unit>> units_;
};

}  // namespace lightcode::hw
