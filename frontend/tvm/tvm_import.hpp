#pragma once
// TVM graph-executor JSON (Relay, as `relay.build(...).get_graph_json()` writes it) -> ir::Graph.
// Op kind from `func_name` by the original's rule; per-entry shapes and dtypes through
// `node_row_ptr`, so a multi-output `split` owns one entry per output and each input takes the
// type of the entry it actually reads (InputTypeRule::entry0 restores the original's
// shortcut for the `lightcode` profile). Optional mock sequence length: a graph traced at
// length L is re-sized to S (L detected from the token-id input unless given).
// Every malformed input is a lightcode::Error naming the file and the line:column or JSON path.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/ir/graph.hpp"

namespace lightcode::frontend {

struct TvmImportOptions {
  ir::InputTypeRule input_rule = ir::InputTypeRule::own_entry;
  std::optional<int64_t> traced_length;    // L; detected when absent and a resize is asked
  std::optional<int64_t> sequence_length;  // S; no resize when absent
};

// A file is parsed once per process while it is unchanged (sim/core/input_file.hpp,
// reuse_input_file): the input check before a run and each point share one parse.
ir::Graph import_tvm_file(const std::string& path, const TvmImportOptions& options = {});
// `name` stands in for the file in errors.
ir::Graph import_tvm_json(std::string_view text, const std::string& name,
                          const TvmImportOptions& options = {});

// JSON texts parsed by this process (files and text alike): a run parses each graph file once.
uint64_t tvm_files_parsed();

// The sequence length a graph was traced at: the length of `input_ids` [1, L] for prefill
// graphs; for decode graphs (input_ids [1, 1]) the KV length, dimension -2 of `past_*`.
std::optional<int64_t> detect_traced_length(const ir::Graph& g);

}  // namespace lightcode::frontend
