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
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/limits.hpp"

namespace lightcode {

std::string read_input_file(const std::string& path, std::string_view what, const Limit& max_bytes);
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
