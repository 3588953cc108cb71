#pragma once
// Reading inputs. Every file LightCode reads as text (configs, scenarios, model configs, TVM
// graphs, timings CSVs, dispatch tables) goes through read_input_file, which
//  - refuses what is not a regular file (a directory, a device such as /dev/zero, a FIFO)
//    before opening it, so nothing blocks or reads forever;
//  - refuses a file larger than its limit (sim/core/limits.hpp) before reading it;
//  - records the file (device and inode) as an input of this run: no output may replace an
//    input (sim/core/output_file.hpp checks is_input_file);
//  - records the SHA-256 of the bytes it read, so that a results file can say what it was
//    computed from (sim/sweep/provenance.hpp): inputs_read_since(input_mark()) taken before a
//    scenario is loaded lists every file its points read.
// Errors are lightcode::Error placed at the file: "<path>: cannot open <what>: <reason>".
// The record is per process (sweep workers inherit their parent's through fork()).
// reuse_input_file lets a reader that keeps what it built from a file (the TVM importer) skip
// reading and parsing it again while the file is unchanged, recording the read all the same.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/limits.hpp"

namespace lightcode {

std::string read_input_file(const std::string& path, std::string_view what, const Limit& max_bytes);
// If `path` is the file read last time at `path`'s device and inode, with the same size and
// modification time, and that time is older than the read by more than a timestamp's
// granularity (kUnchangedMarginNs: a write in the same tick as an earlier one cannot hide),
// records it as read again now and returns the SHA-256 of the bytes that read returned;
// otherwise records nothing and returns "" (read the file).
std::string reuse_input_file(const std::string& path);
// Files whose modification time is this close to their read are never reused: 2 s covers the
// coarsest common file-system timestamps (ext3, FAT; ext4 and tmpfs tick in milliseconds).
inline constexpr int64_t kUnchangedMarginNs = 2'000'000'000;
// Records a file read by other means (an HDF5 results file merged into another), its digest
// read here; a path that is not a regular file is recorded without reading it.
void note_input_file(const std::string& path);
// Throws lightcode::Error placed at `path`, "cannot open <what>: it is a FIFO, not a regular
// file" (or a directory, a device ...) or why it cannot be found, without opening it: for
// readers that open the file by other means (HDF5), so that a FIFO never blocks them.
void check_input_file(const std::string& path, std::string_view what);
// "a directory", "a character device", "a FIFO", ... for a stat() mode that is not a regular file.
const char* file_type_name(unsigned mode);
// The recorded input that is the same file as `path` (same device and inode), or "".
std::string input_file_matching(const std::string& path);

// A file read as an input: its path (absolute, lexically normal, as last spelled) and the
// SHA-256 (hexadecimal) of the bytes last read from it ("" for a noted non-regular file).
struct RecordedInput {
  std::string path;
  std::string sha256;
};
// A position in the record of reads; inputs_read_since(mark) gives each file read or noted
// after it (also one first read before it), once, sorted by path.
uint64_t input_mark();
std::vector<RecordedInput> inputs_read_since(uint64_t mark);

}  // namespace lightcode
