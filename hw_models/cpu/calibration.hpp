#pragma once
// CPU calibration: linear fits of measured op times, for CpuSpec::fits.
// Input: a CSV of timings with the columns tvm_func, compiler_name (the op kind),
// microseconds, shape = "[[input shapes...], [output shapes...]]", e.g.
//   tvmgen_default_fused_nn_dense,dense,361.05,"[[[2, 768], [2304, 768]], [[2, 2304]]]"
// Work per row: MACs (elements of output 0 x last dimension of input 0) for dense, matmul,
// pack and matrix_matrix; elements of output 0 otherwise. Per op kind, ordinary least
// squares gives time = per_work * work + offset (seconds), with R^2 and the point count.
// Rows whose largest input exceeds the cache form a second regime (LinearFit::beyond_cache_*)
// when both regimes have enough points: a weight matrix streamed from DRAM costs several
// times more per MAC than one that stays in cache (GPT-2's vocabulary projection).
// Time cannot fall with work: a negative slope (noise on tiny ops) becomes a constant fit.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hw_models/cpu/cpu_spec.hpp"

namespace lightcode::hw {

struct TimingRow {
  std::string kind;  // compiler_name
  double work = 0.0;
  double seconds = 0.0;
  int64_t largest_input_bytes = 0;
  int line = 0;  // in the CSV, for messages
  std::string file;
};

struct CalibrationOptions {
  double cache_bytes = 32.0 * 1024 * 1024;  // regime split; 0 = one regime per kind
  int bytes_per_element = 4;                // the CSV has no dtypes: TVM's float32
  int min_regime_points = 3;                // fewer, and the rows join the other regime
};

struct Calibration {
  std::map<std::string, LinearFit> fits;  // by op kind, ready for CpuSpec::fits
  double cache_bytes = 0.0;               // what split the regimes (CpuSpec::cache_bytes)
  size_t rows = 0;
};

// Throws lightcode::Error naming file and line for a malformed row or a missing column. The
// file is read through read_input_file (limits::kCsvFileBytes); shapes nest at most
// limits::kCsvShapeDepth levels and their counts are checked.
std::vector<TimingRow> read_timings_csv(const std::string& path,
                                        const CalibrationOptions& options = {});
// The same from text; `path` names it in errors.
std::vector<TimingRow> parse_timings_csv(std::string_view csv, const std::string& path,
                                         const CalibrationOptions& options = {});
// Throws lightcode::Error naming the op kind when a fit is not finite (never writes NaN).
Calibration fit_timings(const std::vector<TimingRow>& rows, const CalibrationOptions& options = {});
inline Calibration calibrate_cpu(const std::string& csv_path,
                                 const CalibrationOptions& options = {}) {
  return fit_timings(read_timings_csv(csv_path, options), options);
}

// The kinds whose work is counted in MACs.
bool counts_macs(const std::string& kind);

}  // namespace lightcode::hw
