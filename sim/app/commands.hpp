#pragma once
// Each `lightcode <command>` registers itself on the CLI11 app through one explicit function
// (no static self-registration); main() calls them in the order --help lists them.
#include <CLI/CLI.hpp>

#include <functional>

namespace lightcode::app {

// A command's body, run after parsing; returns the process exit code.
using CommandAction = std::function<int()>;

void register_inspect(CLI::App& app, CommandAction& action);
void register_hw(CLI::App& app, CommandAction& action);
void register_calibrate(CLI::App& app, CommandAction& action);
void register_run(CLI::App& app, CommandAction& action);
void register_sweep(CLI::App& app, CommandAction& action);
void register_dataset(CLI::App& app, CommandAction& action);  // sim/dataset: the runtime dataset
void register_merge(CLI::App& app, CommandAction& action);
void register_crossover(CLI::App& app, CommandAction& action);
void register_validate(CLI::App& app, CommandAction& action);
void register_limits(CLI::App& app, CommandAction& action);
void register_reference(CLI::App& app, CommandAction& action);
// docs/CONFIG.md: every parameter table, `from:` inheritance and the limits.
std::string config_reference_markdown();
void register_list(CLI::App& app, CommandAction& action);

}  // namespace lightcode::app
