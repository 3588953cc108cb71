#include "sim/sched/reported_cost.hpp"

namespace lightcode::sched {

ReportedCost reported_cost(const opt::TaskGraph& graph, const Schedule& schedule,
                           const hw::System& system, const std::vector<double>* static_pj) {
  ReportedCost r;
  r.makespan = schedule.makespan;
  double total = 0.0;
  for (const opt::Task& t : graph.tasks) {
    total += t.cost.energy.picojoules();
    for (const opt::TaskInput& in : t.inputs) total += in.transfer.energy.picojoules();
  }
  r.dynamic_pj = total;
  const std::vector<double> own =
      static_pj ? std::vector<double>{} : hw::static_energy_pj(system, schedule.makespan);
  for (double s : static_pj ? *static_pj : own) {
    total += s;
    r.static_pj += s;
  }
  r.energy_pj = check_energy(total, "the point's total");
  return r;
}

double device_dynamic_pj(const opt::TaskGraph& graph, const hw::System& system) {
  double total = 0.0;
  for (const opt::Task& t : graph.tasks) {
    const bool device = system.per_device(t.unit);
    if (device) total += t.cost.energy.picojoules();
    for (const opt::TaskInput& in : t.inputs) {
      if (device || system.per_device(graph.tasks[static_cast<size_t>(in.producer)].unit))
        total += in.transfer.energy.picojoules();
    }
  }
  return check_energy(total, "a device's dynamic energy");
}

double device_static_watts(const hw::System& system) {
  double w = 0.0;
  for (size_t t = 0; t < system.unit_count(); ++t) {
    const auto type = static_cast<hw::UnitType>(t);
    if (system.per_device(type)) w += system.model(type).static_power_watts() * system.model(type).unit_count();
  }
  return w;
}

}  // namespace lightcode::sched
