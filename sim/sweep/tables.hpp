#pragma once
// The parameter tables of crossover studies (scenarios/crossover.yaml, read by `lightcode
// crossover`), each key declared once with its type, default and doc (docs/CONFIG.md is
// generated from them); the keys they share with sweep scenarios are the same rows
// (sim/stages/stage_rows.hpp). Sweep scenarios' tables: sim/sweep/scenario.hpp.
#include "sim/core/params.hpp"

namespace lightcode::sweep {

const ParamTable& crossover_table();

}  // namespace lightcode::sweep
