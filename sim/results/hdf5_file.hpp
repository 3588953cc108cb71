#pragma once
// The results file (DESIGN.md, "Results file (HDF5)"): one HDF5 file per scenario.
//   /                 attributes format_version (int64), tool_version, scenario (the YAML
//                     text), created (ISO-8601 UTC, "2024-01-31T12:00:00Z")
//   /summary          compound, one row per point in file order: every scalar of PointSummary
//                     (strings variable-length UTF-8, integers int64, reals float64), then one
//                     string field "param.<name>" per sweep parameter seen in any point ("" where
//                     a point lacks it), so pandas.DataFrame(h5py.File(f)["summary"][:]) is a
//                     plotting table.
//   /points/<id>/     attributes status, error, then one string attribute per parameter (name ->
//                     value, in order); compound datasets summary (1 row, same type as
//                     /summary), tasks, units, energy_breakdown, memory_profile, with fields
//                     named as the members of TaskRecord, UnitRecord, EnergyRow, MemorySample
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

constexpr int64_t kResultsFormatVersion = 1;

// Writes `file` to `path` atomically: into "<path>.tmp-<pid>" beside it, synced to disk, then
// renamed over `path`; creates the parent directory when missing. On failure the temporary
// is removed, any previous file at `path` is left as it was, and lightcode::Error naming
// `path` is thrown. Point ids must be unique, non-empty and free of '/'; parameter names must
// be non-empty, unique within a point and not "status" or "error".
// `durable` = false skips the fsyncs: the rename is still atomic for a crash of the process
// (what a killed sweep worker is), not for one of the machine; sweeps use it for their parts.
void write_results(const std::string& path, const ResultsFile& file, bool durable = true);

// Reads a file written by write_results back: equal, field by field, to what was written.
// Throws lightcode::Error naming `path` (and the point) when it is missing or malformed.
ResultsFile read_results(const std::string& path);

// The `created` stamp: SOURCE_DATE_EPOCH (integer seconds since 1970) when set, else now.
// Throws lightcode::Error when SOURCE_DATE_EPOCH is set but not a non-negative integer.
std::string creation_time();

}  // namespace lightcode::results
