#pragma once
// SystemC photonic core: one 2-D product at a time on its wavelengths, fed by its DAC and
// drained by its ADC. The service time is the PHU model's estimate(): the optical
// stream or the converters, whichever is slower, plus both converter latencies. The core
// records how much of its busy time the converters bound (conversion()) and traces a
// `converting` signal beside `busy`.
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

class PhuCore final : public ServiceUnit {
 public:
  PhuCore(const sc_core::sc_module_name& name, TaskSink& sink, int32_t unit_type, int32_t instance)
      : ServiceUnit(name, sink, unit_type, instance), converting("converting") {}

  Time conversion() const override { return conversion_; }
  void trace_to(sc_core::sc_trace_file* vcd) override {
    ServiceUnit::trace_to(vcd);
    sc_core::sc_trace(vcd, converting, std::string(name()) + ".converting");
  }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> converting;

 private:
  void on_start(int32_t, Time service, const Cost& cost) override {
    const bool conversion_bound = cost.bound == Bound::conversion;
    if (traced_) converting.write(conversion_bound);
    if (conversion_bound) conversion_ = conversion_.plus(service, "a PHU core's conversion-bound time");
  }

  Time conversion_;
};

}  // namespace lightcode::hw
