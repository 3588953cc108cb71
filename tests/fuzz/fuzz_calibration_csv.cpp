// Fuzz target: a CPU timings CSV (hw_models/cpu/calibration.hpp) through parse_timings_csv
// and fit_timings: every row read and every fit returned must be finite.
#include <cmath>
#include <cstdint>
#include <string>

#include "hw_models/cpu/calibration.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run(data, size, [](std::string_view text) {
    const std::vector<hw::TimingRow> rows = hw::parse_timings_csv(text, "<fuzz>/t.csv");
    for (const hw::TimingRow& r : rows) {
      const std::string at = "row at line " + std::to_string(r.line);
      fuzz::require_finite(r.work, at + " work");
      fuzz::require_finite(r.seconds, at + " seconds");
      fuzz::require(r.work >= 0.0, at + ": negative work");
      fuzz::require(r.seconds >= 0.0, at + ": negative time");
      fuzz::require(r.largest_input_bytes >= 0, at + ": negative input bytes");
    }
    const hw::Calibration cal = hw::fit_timings(rows);
    fuzz::require(cal.rows == rows.size(), "fit_timings row count");
    for (const auto& [kind, fit] : cal.fits) {
      fuzz::require_finite(fit.per_work_s, "per_work of " + kind);
      fuzz::require_finite(fit.offset_s, "offset of " + kind);
      fuzz::require_finite(fit.r2, "R^2 of " + kind);
      fuzz::require_finite(fit.beyond_cache_per_work_s, "beyond_cache per_work of " + kind);
      fuzz::require_finite(fit.beyond_cache_offset_s, "beyond_cache offset of " + kind);
      fuzz::require_finite(fit.beyond_cache_r2, "beyond_cache R^2 of " + kind);
      fuzz::require(fit.per_work_s >= 0.0 && fit.beyond_cache_per_work_s >= 0.0,
                    "a negative slope for " + kind);
    }
  });
}
