#pragma once
// The command line's scenario overrides, shared by `run` and `sweep`: `--set key=value`
// (repeatable; a dotted key into the scenario's tree, the value in YAML) and the named flags
// that are sugar over it (--model, --traced-len, --objective, --profile, --fidelity), their
// choices taken from the registries. Each becomes one "key=value" in `sets`, applied to the
// scenario's tree before anything is read (sim/sweep/scenario.hpp): exactly an edit of the file.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace lightcode::app {

void add_scenario_overrides(CLI::App& command, std::vector<std::string>& sets);

}  // namespace lightcode::app
