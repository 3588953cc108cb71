#pragma once
// SystemC GPU: Gpc -> Tpc -> Sm modules in the configured counts, and a block scheduler that
// runs one kernel at a time (one stream): after the kernel's fixed latency and the runtime's
// overhead (launch or gap) it hands the kernel's CTAs to free SMs, in SM order, a wave at a
// time. Every wave but the last costs the plan's per-wave time and the last its last-wave
// time (GpuModel::plan / plan_fused, the same plan estimate() sums), so waves and tails
// appear exactly as the model predicts: 145 CTAs on 144 SMs take two waves. SMs finishing
// together are one kernel event, not one each. A fused task starts from its group's plan
// (GpuModel::plan_fused).
#include <systemc>

#include <memory>
#include <vector>

#include "hw_models/gpu/gpu_model.hpp"
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

struct Sm final : sc_core::sc_module {
  explicit Sm(const sc_core::sc_module_name& name) : sc_core::sc_module(name), busy("busy") {}
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> busy;
  int64_t ctas = 0;  // CTAs this SM ran
};

struct Tpc final : sc_core::sc_module {
  Tpc(const sc_core::sc_module_name& name, int sms);
  std::vector<std::unique_ptr<Sm>> sms;
};

struct Gpc final : sc_core::sc_module {
  Gpc(const sc_core::sc_module_name& name, int tpcs, int sms_per_tpc);
  std::vector<std::unique_ptr<Tpc>> tpcs;
};

class Gpu final : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Gpu);
  Gpu(const sc_core::sc_module_name& name, const GpuSpec& spec, TaskSink& sink, int32_t unit_type);

  bool idle() const { return task_ < 0; }
  void start(int32_t task, const KernelPlan& plan);
  Time busy_time() const { return busy_; }
  int64_t tasks() const { return tasks_; }
  const std::vector<Sm*>& sms() const { return sms_; }
  void trace_signals() { traced_ = true; }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> busy;

 private:
  void launched();
  void wave_done();
  void issue();

  TaskSink& sink_;
  int32_t unit_type_;
  std::vector<std::unique_ptr<Gpc>> gpcs_;
  std::vector<Sm*> sms_;
  bool traced_ = false;
  int32_t task_ = -1;
  int64_t remaining_ = 0;   // CTAs not yet handed out
  int64_t in_flight_ = 0;   // SMs 0 .. in_flight_-1 are running a CTA
  Time per_cta_;
  Time last_cta_;  // the last wave's CTAs
  Time busy_;
  int64_t tasks_ = 0;
  sc_core::sc_event launch_done_;
  sc_core::sc_event wave_done_;
};

}  // namespace lightcode::hw
