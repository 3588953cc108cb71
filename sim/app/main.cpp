// `lightcode`: the command line. Parses, dispatches to one command, turns lightcode::Error
// into a one-line message on stderr and exit code 2 (1 is left for failed checks).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "sim/app/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"

int main(int argc, char** argv) {
  // SystemC prints a banner when its kernel starts; LightCode's output stays clean.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // Interrupted runs leave no temporaries; a file-size limit is a write error, not a crash.
  lightcode::install_cleanup_handlers();
  CLI::App app{
      "LightCode: places the operations of a large language model on CPU, GPU and photonic (PHU)\n"
      "hardware with arithmetic cost models, then times the placed schedule.\n\n"
      "Start with:  lightcode run scenarios/seed_table.yaml\n"
      "             lightcode inspect gpt2 --seq 1400\n"
      "             lightcode inspect ../shared/graphs/tvm/gpt2_prefill_seq5_graph.json"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "lightcode 0.1.0");
  lightcode::app::CommandAction action;
  lightcode::app::register_run(app, action);
  lightcode::app::register_sweep(app, action);
  lightcode::app::register_merge(app, action);
  lightcode::app::register_crossover(app, action);
  lightcode::app::register_inspect(app, action);
  lightcode::app::register_hw(app, action);
  lightcode::app::register_calibrate(app, action);
  lightcode::app::register_validate(app, action);
  lightcode::app::register_list(app, action);
  lightcode::app::register_limits(app, action);
  lightcode::app::register_reference(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return action ? action() : 0;
  } catch (const lightcode::Error& e) {
    std::cerr << "lightcode: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "lightcode: internal error: " << e.what() << "\n";
    return 3;
  }
}
