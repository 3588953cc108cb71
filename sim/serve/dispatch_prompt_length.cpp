#include "sim/serve/dispatch_prompt_length.hpp"

#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/opt/objective.hpp"
#include "sim/serve/dispatch_table.hpp"

namespace lightcode::serve {

size_t PromptLengthDispatch::choose(const Request& request, const DispatchState&) const {
  for (const DispatchRange& r : ranges) {
    if (request.prompt_tokens >= r.from && request.prompt_tokens <= r.to) return r.replica;
  }
  throw Error("request " + std::to_string(request.id) + ": prompt length " + std::to_string(request.prompt_tokens) +
              " is in no range of the prompt_length table");
}

void PromptLengthDispatch::check_inputs() const {
  std::error_code ec;
  if (!std::filesystem::exists(table, ec)) {
    throw Error("dispatch table '" + table +
                "' does not exist: `lightcode crossover` writes it (run the crossover scenario first)");
  }
  load_dispatch_table(table);
}

void PromptLengthDispatch::validate(size_t replicas) const {
  for (size_t i = 0; i < ranges.size(); ++i) {
    const DispatchRange& r = ranges[i];
    const std::string where = "dispatch range " + std::to_string(i) + ": ";
    if (r.from > r.to) throw Error(where + "from " + std::to_string(r.from) + " > to " + std::to_string(r.to));
    if (r.replica >= replicas) {
      throw Error(where + "replica " + std::to_string(r.replica) + " does not exist (" + std::to_string(replicas) +
                  " replicas)");
    }
  }
}

std::shared_ptr<const Dispatcher> PromptLengthDispatch::bind(const DispatchContext& c) const {
  const LoadedDispatchTable loaded = load_dispatch_table(table);
  const std::string where = "dispatch table '" + table + "': ";
  if (loaded.model != c.model) {
    throw Error(where + "made for model '" + loaded.model + "', this point serves '" + c.model + "'");
  }
  if (loaded.stage != "prefill") throw Error(where + "routes by " + loaded.stage + " length; prompts need a prefill table");
  if (loaded.profile != c.profile) {
    throw Error(where + "made under profile '" + loaded.profile + "', this point runs '" + c.profile + "'");
  }
  const std::string routing = objective.empty() ? c.objective : objective;
  const DispatchObjective* found = nullptr;
  for (const DispatchObjective& o : loaded.objectives) {
    if (o.objective == routing) found = &o;
  }
  if (!found) throw Error(where + "has no table for objective '" + routing + "' (set the dispatch's `objective`)");
  auto bound = std::make_shared<PromptLengthDispatch>(*this);
  bound->ranges.clear();
  const size_t n = c.replica_names.size();
  for (const DispatchRule& rule : found->rules) {
    size_t replica = n;
    for (size_t i = 0; i < n && replica == n; ++i) {
      if (c.replica_names[i] == rule.system) replica = i;
    }
    if (replica == n) {
      std::string names;
      for (const std::string& s : c.replica_names) names += (names.empty() ? "" : ", ") + s;
      throw Error(where + "prompts of " + std::to_string(rule.from) + ".." + std::to_string(rule.to) +
                  " tokens go to system '" + rule.system + "', which no replica is (replicas: " + names + ")");
    }
    bound->ranges.push_back(DispatchRange{rule.from, rule.to, replica});
  }
  for (const Request& q : *c.requests) {
    bool covered = false;
    for (const DispatchRange& r : bound->ranges) covered = covered || (q.prompt_tokens >= r.from && q.prompt_tokens <= r.to);
    if (!covered) {
      throw Error(where + "covers prompts of " + std::to_string(loaded.start) + ".." + std::to_string(loaded.stop) +
                  " tokens; request " + std::to_string(q.id) + " has " + std::to_string(q.prompt_tokens));
    }
  }
  return bound;
}

DispatchPolicy prompt_length_dispatch() {
  static const ParamTable table{
      "dispatch.prompt_length",
      "Prompt-length dispatch by a `lightcode crossover` dispatch table "
      "(sim/serve/dispatch_prompt_length.hpp).",
      {
          Param::text("table").required().doc(
              "the YAML or JSON dispatch table `lightcode crossover` wrote (relative to the file); its "
              "systems are the replicas' (by name)"),
          Param::text("objective").doc("which of the table's objectives routes; default: the point's objective"),
      }};
  return {"prompt_length", "a table of prompt-length ranges, each naming a replica", &table,
          [](const Params& p) -> std::shared_ptr<const Dispatcher> {
            auto d = std::make_shared<PromptLengthDispatch>();
            d->table = p.path("table");
            if (const auto o = p.text_if("objective")) {
              try {
                opt::objective_named(*o);
              } catch (const Error& e) {
                p.at("objective").fail(e.what());
              }
              d->objective = *o;
            }
            return d;
          }};
}

}  // namespace lightcode::serve
