#include "sim/app/overrides.hpp"

#include "hw_models/registry.hpp"
#include "sim/opt/objective.hpp"

namespace lightcode::app {
namespace {

// A named flag that sets scenario key `key`.
CLI::Option* sugar(CLI::App& command, std::vector<std::string>& sets, const std::string& flag, const std::string& key,
                   const std::string& help) {
  return command.add_option_function<std::string>(
      flag, [&sets, key](const std::string& value) { sets.push_back(key + "=" + value); },
      help + " (the same as --set " + key + "=...)");
}

}  // namespace

void add_scenario_overrides(CLI::App& command, std::vector<std::string>& sets) {
  command
      .add_option_function<std::vector<std::string>>(
          "--set", [&sets](const std::vector<std::string>& values) { sets.insert(sets.end(), values.begin(), values.end()); },
          "Set a scenario key before the scenario is read, as editing the file would: key=value, the\n"
          "key a dotted path (objective=energy, batching.max_batch=16, requests.count=200), the value\n"
          "YAML ('replicas=[{system: configs/systems/h100_sxm.yaml}]'; paths relative to here); repeatable")
      ->allow_extra_args(false);
  sugar(command, sets, "--model", "model", "Replace the model: a built-in name or a TVM graph JSON file");
  sugar(command, sets, "--traced-len", "traced_length", "Sequence length the TVM graph was traced at");
  std::vector<std::string> profiles;
  for (const auto& p : hw::default_registry().profiles()) profiles.emplace_back(p->name());
  sugar(command, sets, "--objective", "objective", "Replace the objective")->check(CLI::IsMember(opt::objective_names()));
  sugar(command, sets, "--profile", "profile", "Replace the profile")->check(CLI::IsMember(profiles));
  sugar(command, sets, "--fidelity", "fidelity",
        "analytical (list scheduler, in this process) or event (SystemC engine, one worker process per point)")
      ->check(CLI::IsMember({"analytical", "event"}));
}

}  // namespace lightcode::app
