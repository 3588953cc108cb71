#pragma once
// Reading inputs. Every file LightCode reads as text (configs, scenarios, model configs, TVM
// graphs, timings CSVs, dispatch tables) goes through read_input_file, which
//  - refuses what is not a regular file (a directory, a device such as /dev/zero, a FIFO)
//    before opening it, so nothing blocks or reads forever;
//  - refuses a file larger than its limit (sim/core/limits.hpp) before reading it;
//  - records the file (device and inode) as an input of this run: no output may replace an
//    input (sim/core/output_file.hpp checks is_input_file).
// Errors are lightcode::Error placed at the file: "<path>: cannot open <what>: <reason>".
#include <string>
#include <string_view>

#include "sim/core/limits.hpp"

namespace lightcode {

std::string read_input_file(const std::string& path, std::string_view what, const Limit& max_bytes);
// Records a file read by other means (an HDF5 results file merged into another).
void note_input_file(const std::string& path);
// "a directory", "a character device", "a FIFO", ... for a stat() mode that is not a regular file.
const char* file_type_name(unsigned mode);
// The recorded input that is the same file as `path` (same device and inode), or "".
std::string input_file_matching(const std::string& path);

}  // namespace lightcode
