#include "hw_models/gpu/sc_gpu.hpp"

#include <algorithm>
#include <string>


namespace lightcode::hw {
Tpc::Tpc(const sc_core::sc_module_name& name, int n) : sc_core::sc_module(name) {
  for (int i = 0; i < n; ++i) sms.push_back(std::make_unique<Sm>(("sm" + std::to_string(i)).c_str()));
}

Gpc::Gpc(const sc_core::sc_module_name& name, int n, int sms_per_tpc) : sc_core::sc_module(name) {
  for (int i = 0; i < n; ++i) tpcs.push_back(std::make_unique<Tpc>(("tpc" + std::to_string(i)).c_str(), sms_per_tpc));
}

Gpu::Gpu(const sc_core::sc_module_name& name, const GpuSpec& spec, TaskSink& sink, int32_t unit_type)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), unit_type_(unit_type) {
  for (int g = 0; g < spec.gpcs; ++g) {
    gpcs_.push_back(std::make_unique<Gpc>(("gpc" + std::to_string(g)).c_str(), spec.tpcs_per_gpc, spec.sms_per_tpc));
    for (auto& tpc : gpcs_.back()->tpcs) {
      for (auto& sm : tpc->sms) sms_.push_back(sm.get());
    }
  }
  SC_METHOD(launched);
  sensitive << launch_done_;
  dont_initialize();
  SC_METHOD(wave_done);
  sensitive << wave_done_;
  dont_initialize();
}

void Gpu::start(int32_t task, const KernelPlan& plan) {
  task_ = task;
  remaining_ = plan.ctas;
  in_flight_ = 0;
  per_cta_ = plan.per_wave;
  last_cta_ = plan.last_wave;
  busy_ = busy_.plus(plan.total(), "the GPU's busy time");
  ++tasks_;
  if (traced_) busy.write(true);
  notify_after(launch_done_, plan.latency + plan.runtime_overhead);
}

void Gpu::launched() {
  if (remaining_ == 0) {
    wave_done();
    return;
  }
  issue();
}

void Gpu::issue() {
  if (!traced_) {
    // Untraced, the waves need no events of their own: all SMs are free between the waves of
    // one kernel and every wave takes per_cta_, so the kernel ends waves x per_cta_ from now
    // and each SM runs its share of the CTAs. One event per kernel, however many waves.
    const auto sms = static_cast<int64_t>(sms_.size());
    const int64_t full = remaining_ / sms, rest = remaining_ % sms;
    for (int64_t i = 0; i < sms; ++i) sms_[static_cast<size_t>(i)]->ctas += full + (i < rest ? 1 : 0);
    remaining_ = 0;
    in_flight_ = 0;
    const int64_t waves = full + (rest > 0 ? 1 : 0);
    notify_after(wave_done_, waves == 0 ? Time::zero() : per_cta_ * (waves - 1) + last_cta_);
    return;
  }
  // All SMs are free between waves of one kernel: hand out as many CTAs as there are SMs.
  in_flight_ = std::min<int64_t>(remaining_, static_cast<int64_t>(sms_.size()));
  remaining_ -= in_flight_;
  for (int64_t i = 0; i < in_flight_; ++i) {
    if (traced_) sms_[static_cast<size_t>(i)]->busy.write(true);
    ++sms_[static_cast<size_t>(i)]->ctas;
  }
  notify_after(wave_done_, remaining_ == 0 ? last_cta_ : per_cta_);
}

void Gpu::wave_done() {
  if (traced_) {
    for (int64_t i = 0; i < in_flight_; ++i) sms_[static_cast<size_t>(i)]->busy.write(false);
  }
  in_flight_ = 0;
  if (remaining_ > 0) {
    issue();
    return;
  }
  const int32_t t = task_;
  task_ = -1;
  if (traced_) busy.write(false);
  sink_.task_finished(t, unit_type_, 0);
}

namespace {

// The device is one unit (instance 0): each kernel's CTAs go to its SMs in waves.
class GpuModules final : public UnitModules {
 public:
  explicit GpuModules(const ModuleContext& c)
      : model_(dynamic_cast<const GpuModel&>(c.model)), gpu_(c.name.c_str(), model_.spec(), c.sink, c.unit_type) {}
  void start(int32_t, int32_t task, const ir::Node& op, const ir::FusedKernel* fused, AlgorithmId algorithm,
             const Cost&) override {
    // The plan whose total() is the cost's time: estimate_fused()'s for a fused group.
    gpu_.start(task, fused ? model_.plan_fused(*fused) : model_.plan(op, algorithm));
  }
  void trace(sc_core::sc_trace_file* vcd) override {
    gpu_.trace_signals();
    sc_core::sc_trace(vcd, gpu_.busy, gpu_.name());
    for (auto* sm : gpu_.sms()) sc_core::sc_trace(vcd, sm->busy, sm->name());
  }

 private:
  const GpuModel& model_;
  Gpu gpu_;
};

}  // namespace

std::unique_ptr<UnitModules> make_gpu_modules(const ModuleContext& context) {
  return std::make_unique<GpuModules>(context);
}

}  // namespace lightcode::hw
