#include "sim/opt/objective.hpp"

#include "sim/core/error.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode::opt {

const std::vector<ObjectiveInfo>& objectives() {
  static const std::vector<ObjectiveInfo> table{
      {Objective::time, "time", "s",
       "the schedule's makespan (lightcode profile: the sum of op and transfer times per subgraph)"},
      {Objective::energy, "energy", "pJ",
       "the report's total energy, static power x makespan included (lightcode profile: the sum of op "
       "and transfer energies per subgraph)"},
      {Objective::edp, "edp", "s*pJ",
       "makespan x total energy (lightcode profile: the product of the two sums per subgraph)"},
  };
  return table;
}

double ObjectiveInfo::score(Time makespan, double energy_pj) const {
  const auto ps = static_cast<double>(makespan.count_ps());
  switch (id) {
    case Objective::time: return ps;
    case Objective::energy: return energy_pj;
    case Objective::edp: return ps * energy_pj;
  }
  return ps;
}

double ObjectiveInfo::reported(double score) const {
  return id == Objective::energy ? score : score / kPicosPerSecond;
}

const ObjectiveInfo& objective_info(Objective o) { return objectives()[static_cast<size_t>(o)]; }

const ObjectiveInfo& objective_named(std::string_view name) {
  return named_in(objectives(), name, "objective");
}

std::vector<std::string> objective_names() {
  std::vector<std::string> names;
  for (const ObjectiveInfo& o : objectives()) names.emplace_back(o.name);
  return names;
}

std::string_view objective_name(Objective o) { return objective_info(o).name; }

}  // namespace lightcode::opt
