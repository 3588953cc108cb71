// `lightcode limits`: the bounds every loader enforces (sim/core/limits.hpp), as text or as
// the Markdown table docs/CONFIG.md carries.
#include <iostream>
#include <memory>

#include "sim/app/commands.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::app {

void register_limits(CLI::App& app, CommandAction& action) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "limits",
      "List the limits LightCode's loaders enforce before they allocate or iterate: file sizes,\n"
      "nesting, names, sequence lengths, sweep sizes. An input beyond one is an error naming the\n"
      "file, the key and the limit.\n\n"
      "  lightcode limits\n"
      "  lightcode limits --markdown     # the table in docs/CONFIG.md");
  cmd->add_flag("--markdown", *markdown, "Print the table as Markdown");
  cmd->callback([markdown, &action] {
    action = [markdown] {
      std::cout << (*markdown ? limits_markdown() : limits_text());
      return 0;
    };
  });
}

}  // namespace lightcode::app
