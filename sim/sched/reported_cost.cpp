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

}  // namespace lightcode::sched
