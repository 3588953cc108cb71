#include "sim/sweep/validate.hpp"

#include <filesystem>
#include <set>
#include <string>

#include "frontend/load_model.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/tvm/tvm_import.hpp"
#include "hw_models/system.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/requests.hpp"
#include "sim/sweep/dispatch_table.hpp"

namespace lightcode::sweep {
namespace {

// The point's system as the point will load it; the key identifies that exact configuration.
std::string system_key(const PointSpec& p) {
  std::string key = p.profile + "\n" + p.system;
  for (const auto& [path, value] : p.overrides) key += "\n" + path + "=" + value;
  return key;
}

void check_system(const PointSpec& p) {
  hw::System::from_config(system_config(p), hw::profile_named(p.profile));
}

void check_model(const PointSpec& p) {
  if (frontend::is_graph_file(p.model)) {
    frontend::import_tvm_file(p.model);  // as traced: re-sizing is the point's business
  } else {
    frontend::builtin_model(p.model);
  }
}

}  // namespace

void validate_point_inputs(const std::vector<PointSpec>& points) {
  std::set<std::string> systems_seen, models_seen, problems_seen;
  std::vector<std::string> problems;
  auto attempt = [&](auto&& check) {
    try {
      check();
    } catch (const Error& e) {
      if (problems_seen.insert(e.what()).second) problems.push_back(e.what());
    }
  };
  std::set<std::string> files_seen;
  for (const PointSpec& p : points) {
    if (models_seen.insert(p.model).second) attempt([&] { check_model(p); });
    if (p.stage != "serve") {
      if (systems_seen.insert(system_key(p)).second) attempt([&] { check_system(p); });
      continue;
    }
    // A serve point's inputs: every replica's system, its trace and its dispatch table.
    for (const ServeReplica& r : p.serve.replicas) {
      if (systems_seen.insert(p.profile + "\n" + r.system).second) {
        attempt([&] { hw::System::load(r.system, hw::profile_named(p.profile)); });
      }
    }
    if (!p.serve.trace.empty() && files_seen.insert(p.serve.trace).second) {
      attempt([&] { serve::load_request_trace(p.serve.trace); });
    }
    if (p.serve.dispatch == "prompt_length" && files_seen.insert(p.serve.dispatch_table).second) {
      attempt([&] {
        std::error_code ec;
        if (!std::filesystem::exists(p.serve.dispatch_table, ec)) {
          throw Error("dispatch table '" + p.serve.dispatch_table +
                      "' does not exist: `lightcode crossover` writes it (run the crossover scenario first)");
        }
        load_dispatch_table(p.serve.dispatch_table);
      });
    }
  }
  if (problems.empty()) return;
  if (problems.size() == 1) throw Error(problems.front());
  std::string message = std::to_string(problems.size()) + " problems in the scenario's inputs:";
  for (const std::string& m : problems) message += "\n  " + m;
  throw Error(message);
}

}  // namespace lightcode::sweep
