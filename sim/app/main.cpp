// `lightcode`: the command line. Parses, dispatches to one command, turns lightcode::Error
// into a one-line message on stderr and exit code 2 (1 is left for failed checks). Exit codes:
// 0 done, 2 the user's to fix (a bad input, an unknown command or option, with the closest
// command suggested), 3 an internal error.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "sim/app/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/suggest.hpp"

namespace {

// The first word that should name a command of `app` (or of a command that requires one,
// like `hw`) and names none: a message suggesting the closest, or "" when every word does.
std::string unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return "";  // an option: CLI11 checks those
    const std::vector<CLI::App*> commands = at->get_subcommands([](CLI::App*) { return true; });
    if (commands.empty() || at->get_require_subcommand_min() == 0) return "";  // a positional
    CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (CLI::App* c : commands) {
      if (c->check_name(word)) next = c;
      names.push_back(c->get_name());
    }
    if (next) {
      at = next;
      continue;
    }
    std::string message = "unknown command '" + lightcode::excerpt(word) + "'";
    const std::string best = lightcode::closest_name(word, names);
    if (!best.empty()) message += " (did you mean '" + best + "'?)";
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return message + "; " + (at == &app ? "commands" : "'" + at->get_name() + "' takes") + ": " + list;
  }
  return "";
}

}  // namespace

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
  lightcode::app::register_dataset(app, action);
  lightcode::app::register_merge(app, action);
  lightcode::app::register_crossover(app, action);
  lightcode::app::register_inspect(app, action);
  lightcode::app::register_hw(app, action);
  lightcode::app::register_calibrate(app, action);
  lightcode::app::register_validate(app, action);
  lightcode::app::register_list(app, action);
  lightcode::app::register_limits(app, action);
  lightcode::app::register_reference(app, action);
  if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
    std::cerr << "lightcode: error: " << unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; anything else is the user's to fix.
    return app.exit(e) == 0 ? 0 : 2;
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
