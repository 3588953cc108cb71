#pragma once
// The results file (DESIGN.md, "Results file (HDF5)"): one HDF5 file per scenario.
//   /                 attributes format_version (int64), tool_version, scenario (the YAML
//                     text), created (ISO-8601 UTC, "2024-01-31T12:00:00Z"); where recorded,
//                     scenario_name and scenario_digest (SHA-256, hexadecimal: of the scenario
//                     text, its command-line settings and its inputs, sim/sweep/provenance.hpp)
//   /inputs           with scenario_digest: compound (path, sha256), one row per input file,
//                     paths relative to the scenario's directory, sorted
//   /sources          a merge of different scenarios: compound (name, digest, scenario), one
//                     row per scenario whose points the file holds
//   /summary          compound, one row per point in file order: every scalar of PointSummary
//                     (strings variable-length UTF-8, integers int64, reals float64), then one
//                     field "param.<name>" per sweep parameter seen in any point: int64 when
//                     every point's value is an integer, float64 when every value is a number
//                     (NaN where a point lacks it), else a string ("" where missing) — see
//                     parameter_value.hpp — so pandas.DataFrame(h5py.File(f)["summary"][:]) is
//                     a plotting table (tools/lightcode_results.py also decodes the strings).
//   /points/<id>/     attributes status, error, then one attribute per parameter (name ->
//                     value, in order; int64, float64 or string by the value); compound datasets
//                     summary (1 row, typed as /summary by this point's values), tasks, units, energy_breakdown,
//                     memory_profile (and for stage serve requests, serve_series), with fields
//                     named as the members of TaskRecord, UnitRecord, EnergyRow, MemorySample,
//                     RequestRow, ServeSample
//                     (int32 members stay int32). Their strings are fixed-width UTF-8 sized to
//                     the longest entry, NUL-padded, and large tables are chunked with
//                     shuffle + deflate: variable-length strings made a 1000-point GPT-2 sweep
//                     450 MB and slow to read; this makes it ~20 MB. h5py reads both kinds
//                     of string as bytes. The reader accepts either kind anywhere.
// Units are in the field names: *_ps integer picoseconds, *_s seconds, *_pj picojoules.
// Same ResultsFile and same SOURCE_DATE_EPOCH give byte-identical files (no object times).
// Strings must not contain NUL bytes (HDF5 strings end there). Not thread-safe (HDF5 isn't).
#include <cstdint>
#include <string>

#include "sim/results/report.hpp"

namespace lightcode::results {

// 2: parameters stored as numbers where they are numbers (1: every parameter a string), and
// the summary's `scheduler`; 3: the tasks' `covers` (fused kernels); 4: the summary's
// `precision_bits`, `photonic_refused_precision`, `lower_bound`, `gap` and
// `placement_evaluations`, and a point's optional `pareto` table (makespan_ps, energy_pj,
// origin); 5: the tasks' `step` (stage generate: 0 = prefill, t = decode step t), stage
// serve's summary figures (requests .. preemptions) and a serve point's `requests` (one row
// per request, fields of RequestRow) and `serve_series` (ServeSample) tables; 6: summary figures
// of a part its stage does not report (SummaryPart: graph, generation, serving, per-token
// energy) are NaN: such a numeric column is float64 when some row does not report its part
// (else it keeps its type), strings are empty. Files of every earlier version are read (their
// parts follow from the stage). The provenance above (scenario_name, scenario_digest, /inputs,
// /sources) is read where present: files written before it lack it. 7: stage serve's
// summary `rejected` and the requests' `status` and `reason` (requests rejected at arrival).
// 8: the summary's `reduced_precision_products` and `reduced_precision` (products a photonic
// unit ran at fewer bits than their dtype holds). 9: stage serve's summary `average_power_w` and
// its steady state (`steady_state_s`, `steady_output_tokens`, `steady_throughput_tokens_per_s`,
// `steady_energy_per_token_pj`, `steady_power_w`). 10: stage serve's `steady_iterations` and
// `steady_sequence_iterations`. 11: the summary's `tensor_parallel`, `pipeline_parallel`,
// `communication_s` and `group_energy_pj` (points over several devices).
constexpr int64_t kResultsFormatVersion = 11;

// Writes `file` to `path` through write_output_file (sim/core/output_file.hpp): built in
// memory, then written to a temporary beside `path`, synced and renamed over it, the parent
// directory created when missing. On failure (a full disk too) nothing is left but what was
// at `path` before, and lightcode::Error naming `path` is thrown. Point ids must be unique,
// non-empty and free of '/'; parameter names must be non-empty, unique within a point and not
// "status" or "error". `durable` and `clean_stale` as in write_output_file (sweep parts skip
// both: the rename is still atomic for a killed process, the sweep cleans its parts once).
void write_results(const std::string& path, const ResultsFile& file, bool durable = true,
                   bool clean_stale = true);

// Reads a file written by write_results back: equal, field by field, to what was written.
// Throws lightcode::Error naming `path` (and the point) when it is missing or malformed.
ResultsFile read_results(const std::string& path);

// The `created` stamp: SOURCE_DATE_EPOCH (integer seconds since 1970) when set, else now.
// Throws lightcode::Error when SOURCE_DATE_EPOCH is set but not a non-negative integer.
std::string creation_time();

}  // namespace lightcode::results
