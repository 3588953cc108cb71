#pragma once
// SystemC photonic core: one 2-D product at a time on its `multiplex` wavelengths, fed by its
// DAC and drained by its ADC. The service time is the PHU model's estimate(): the optical
// stream or the converters, whichever is slower, plus both converter latencies. The core
// records how much of its busy time the converters bound (conversion_ps) and traces a
// `converting` signal beside `busy`.
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

class PhuCore final : public ServiceUnit {
 public:
  PhuCore(const sc_core::sc_module_name& name, TaskSink& sink, int32_t unit_type, int32_t instance, int multiplex)
      : ServiceUnit(name, sink, unit_type, instance), converting("converting"), multiplex_(multiplex) {}

  // Called by the engine before start(): whether the coming product is conversion-bound.
  void next_is_conversion_bound(bool bound) { conversion_bound_ = bound; }
  int64_t conversion_ps() const { return conversion_ps_; }
  int multiplex() const { return multiplex_; }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> converting;

 private:
  void on_start(int32_t, int64_t service_ps) override {
    if (traced_) converting.write(conversion_bound_);
    if (conversion_bound_) conversion_ps_ += service_ps;
  }

  int multiplex_;
  bool conversion_bound_ = false;
  int64_t conversion_ps_ = 0;
};

}  // namespace lightcode::hw
