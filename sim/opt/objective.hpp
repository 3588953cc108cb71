#pragma once
// Objectives, registered: what placement minimises and how a point's figures are scored for
// it. One table serves the selector, run, sweep, crossover, dispatch tables and the CLI
// (`lightcode list objectives`); a name outside it is an error listing the names.
//   time    the makespan (ps; reported in s)
//   energy  the total energy (pJ), static power x makespan included
//   edp     their product (ps x pJ; reported in s x pJ)
// The default profile's placement minimises exactly these, as reported (sim/joint); the
// lightcode profile's selector minimises the original's per-subgraph sums (opt::place).
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/quantity.hpp"

namespace lightcode::opt {

enum class Objective { time, energy, edp };

struct ObjectiveInfo {
  Objective id;
  std::string_view name;
  std::string_view unit;         // of the reported metric: "s", "pJ", "s*pJ"
  std::string_view description;
  // The score of a point (lower is better), from its makespan (counted in ps) and energy in
  // pJ, and the same score in the reported unit.
  double score(Time makespan, double energy_pj) const;
  double reported(double score) const;
};

const std::vector<ObjectiveInfo>& objectives();
const ObjectiveInfo& objective_info(Objective o);
// Throws lightcode::Error naming the unknown objective and listing the known ones.
const ObjectiveInfo& objective_named(std::string_view name);
std::vector<std::string> objective_names();
std::string_view objective_name(Objective o);

}  // namespace lightcode::opt
