#pragma once
// The runtime dataset's tables, declared once: each column's name, type, width (text), unit and
// one-line doc. The writer (HDF5 compound tables), the records (packed rows, rows.hpp) and
// docs/DATASET.md's schema section (schema_markdown(), printed by `lightcode dataset --schema`)
// all come from these declarations, so the documented schema is the written one.
//
// Conventions: integers are int64 unless a column says int32; reals float64; text is UTF-8,
// fixed-width and NUL-padded (h5py reads it as bytes). A figure that does not apply to a row is
// NaN (such columns are float64), never 0. Units are in the names: *_ps integer picoseconds,
// *_s seconds, *_pj picojoules. Ids are dense row numbers in file order, so that tables join by
// plain integer keys (ops.graph_id = graphs.graph_id).
//
// Each table's columns are an enum below in the order of its declaration (checked at start-up:
// a column out of place is a logic error), so that code fills rows by enum, never by name.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace lightcode::dataset {

// Bumped when a table, column, unit or meaning changes (the `schema_version` root attribute).
inline constexpr int64_t kSchemaVersion = 1;

enum class Type : uint8_t { text, i32, i64, f64 };

// What a float64 cell holds where its figure does not apply.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Column {
  size_t index;  // its enum value, checked against its position
  std::string_view name;
  Type type;
  uint32_t width;  // text: bytes per cell; else 0
  std::string_view unit;
  std::string_view doc;
};

// The tables: the first kStreamedTables are written point by point, in this order; /families
// and /inputs once at the end, from what the points gave.
enum class Table : uint8_t {
  points,
  graphs,
  ops,
  edges,
  placement,
  alternatives,
  iterations,
  hardware,
  hardware_parameters,
  families,
  inputs,
};
inline constexpr size_t kStreamedTables = 9;
inline constexpr size_t kTables = 11;

struct TableSchema {
  std::string_view name;
  std::string_view doc;
  std::vector<Column> columns;
  // Natural alignment in memory, as results::h5::Layout lays a row out (fixed-width text at
  // byte alignment; the row rounded up to 8 bytes): a packed row is the HDF5 memory row.
  std::vector<size_t> offsets;
  size_t row_size = 0;
};

const TableSchema& schema(Table t);

// The file's root attributes: its provenance (the writer writes each of these names).
namespace attr {
inline constexpr std::string_view format = "format", schema_version = "schema_version", tool_version = "tool_version",
                                  scenario_name = "scenario_name", scenario = "scenario", settings = "settings",
                                  scenario_digest = "scenario_digest", fidelity = "fidelity", seeds = "seeds",
                                  split_rule = "split_rule", validation_families = "validation_families",
                                  test_families = "test_families", points = "points", failed_points = "failed_points";
}
struct Attribute {
  std::string_view name;
  Type type;  // text or i64
  std::string_view doc;
};
const std::vector<Attribute>& root_attributes();

// The Markdown of every table (docs/DATASET.md's generated section, `lightcode dataset --schema`).
std::string schema_markdown();

// Column enums, one per table, in declaration order.
namespace points_col {
enum : size_t {
  point, point_id, status, error, stage, model, family, split, system, system_file, objective, profile, scheduler,
  fidelity, sequence_length, new_tokens, parameters, seed, graphs, ops, iterations, makespan_s, energy_pj, ttft_s,
  tpot_s, energy_per_token_pj, requests, throughput_tokens_per_s, count
};
}
namespace graphs_col {
enum : size_t {
  graph_id, point, point_id, step, model, family, split, stage, batch, tokens, context_length, sequence_length,
  tensor_parallel, pipeline_parallel, system, system_file, hardware_ids, objective, profile, scheduler, fidelity,
  makespan_ps, makespan_s, energy_pj, dynamic_energy_pj, static_energy_pj, tasks, nodes, macs, flops, placement,
  lower_bound, gap, placement_evaluations, photonic_selected, photonic_possible, split_product, alternatives, count
};
}
namespace ops_col {
enum : size_t {
  record_id, graph_id, point, task, step, name, kind, node, fused, covers, kernel_class, fusion_rule, inputs,
  input_shapes, output_shapes, dtype, output_dtype, input_elements, output_elements, input_bytes, output_bytes, batch,
  m, n, k, macs, flops, hardware, hardware_family, hardware_id, instance, algorithm, bound, time_ps, time_s, start_ps,
  end_ps, energy_pj, conversion_energy_pj, bytes_read, bytes_written, input_transfer_ps, input_transfer_energy_pj,
  input_transfer_bytes, subgraph, repeat, off_unit, split_part, model, family, split, count
};
}
namespace edges_col {
enum : size_t { graph_id, src, dst, src_hardware, dst_hardware, bytes, transfer_ps, transfer_energy_pj, count };
}
namespace placement_col {
enum : size_t { graph_id, hardware, hardware_family, hardware_id, instances, tasks, busy_ps, utilisation, energy_pj, count };
}
namespace alternatives_col {
enum : size_t { graph_id, rank, origin, makespan_ps, energy_pj, edp_s_pj, chosen, count };
}
namespace iterations_col {
enum : size_t {
  point, iteration, replica, system, hardware_ids, start_ps, end_ps, duration_ps, batch, prefill_sequences,
  decode_sequences, prefill_tokens, decode_tokens, tokens_produced, context_tokens, max_context, kv_used_tokens,
  energy_pj, model, family, split, count
};
}
namespace hardware_col {
enum : size_t { hardware_id, system, system_file, unit, unit_type, family, compute, devices, parameters, count };
}
namespace hardware_parameters_col {
enum : size_t { hardware_id, parameter, value, unit, text, count };
}
namespace families_col {
enum : size_t { family, split, rule, hash, models, points, count };
}
namespace inputs_col {
enum : size_t { path, sha256, count };
}

}  // namespace lightcode::dataset
