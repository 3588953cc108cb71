#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

ServiceUnit::ServiceUnit(const sc_core::sc_module_name& name, TaskSink& sink, int32_t unit_type,
                         int32_t instance)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), unit_type_(unit_type), instance_(instance) {
  SC_METHOD(finish);
  sensitive << done_;
  dont_initialize();
}

void ServiceUnit::start(int32_t task, Time service, const Cost& cost) {
  task_ = task;
  busy_ = busy_.plus(service, "a unit's busy time");
  ++tasks_;
  if (traced_) busy.write(true);
  on_start(task, service, cost);
  notify_after(done_, service);
}

void ServiceUnit::trace_to(sc_core::sc_trace_file* vcd) {
  trace_signals();
  sc_core::sc_trace(vcd, busy, name());
}

void ServiceUnit::finish() {
  const int32_t t = task_;
  task_ = -1;
  if (traced_) busy.write(false);
  sink_.task_finished(t, unit_type_, instance_);
}

}  // namespace lightcode::hw

namespace lightcode::hw {

std::unique_ptr<UnitModules> make_service_modules(const ModuleContext& context) {
  return std::make_unique<ServiceModules<ServiceUnit>>(context);
}

}  // namespace lightcode::hw
