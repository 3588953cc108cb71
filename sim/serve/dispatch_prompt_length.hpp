#pragma once
// Prompt-length dispatch: a `lightcode crossover` dispatch table (dispatch_table.hpp) routes
// each prompt to the replica whose system the table names for its length. Keys:
//   dispatch: {policy: prompt_length, table: ../results/crossover_serving.yaml, objective: energy}
// `table` is required (relative to the file that names it); `objective` chooses which of the
// table's objectives routes (default: the point's). Before any point runs the table is read and
// checked (check_inputs); binding to a point checks that the table was made for the point's
// model, stage (prefill) and profile, that every system it routes to is a replica (by system
// name), and that every request's prompt lies in its range: each is an error naming the table
// (and the request).
#include <memory>
#include <string>
#include <vector>

#include "sim/serve/dispatch.hpp"

namespace lightcode::serve {

struct DispatchRange {
  int64_t from = 0, to = 0;  // prompt tokens, inclusive
  size_t replica = 0;
};

struct PromptLengthDispatch : Dispatcher {
  std::string table;      // the dispatch table's path
  std::string objective;  // "" = the point's objective
  std::vector<DispatchRange> ranges;  // bound: the first range holding a prompt names its replica

  PromptLengthDispatch() = default;
  explicit PromptLengthDispatch(std::vector<DispatchRange> bound) : ranges(std::move(bound)) {}
  // The first range that holds the prompt; a prompt in none is an error naming the request.
  size_t choose(const Request& request, const DispatchState& state) const override;
  void check_inputs() const override;
  std::vector<std::string> input_files() const override { return {table}; }
  std::shared_ptr<const Dispatcher> bind(const DispatchContext& context) const override;
  void validate(size_t replicas) const override;
};

DispatchPolicy prompt_length_dispatch();

}  // namespace lightcode::serve
