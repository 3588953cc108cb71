// `lightcode calibrate`: fit per-op linear CPU time models to measured timings and write a
// CPU spec that inherits a base spec and adds the fits.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "hw_models/cpu/calibration.hpp"
#include "hw_models/cpu/cpu_spec.hpp"
#include "sim/app/commands.hpp"
#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/paths.hpp"
#include "sim/core/units.hpp"

namespace lightcode::app {
namespace {

namespace fs = std::filesystem;

struct CalibrateOptions {
  std::string csv;
  std::string out;
  std::string base;
  std::string cache;  // quantity text; empty = the base's `cache`, else 32 MiB
};

std::string seconds_text(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g s", s);
  return buf;
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Exact, so the model splits regimes where the calibration did.
std::string bytes_text(double b) {
  constexpr double kMiB = 1024.0 * 1024.0;
  char buf[64];
  if (b >= kMiB && std::fmod(b, kMiB) == 0.0) {
    std::snprintf(buf, sizeof buf, "%.0f MiB", b / kMiB);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  }
  return buf;
}

std::string fits_yaml(const std::string& csv, const std::string& from, const hw::CpuSpec& base,
                      const hw::Calibration& c) {
  std::ostringstream y;
  y << "# Written by `lightcode calibrate " << csv << "`.\n"
    << "# Per op kind: time = per_work * work + offset (work: MACs of a matrix product, else\n"
    << "# elements of output 0), ordinary least squares over the measured rows; beyond_cache\n"
    << "# is the regime of ops whose largest input exceeds `cache`.\n"
    << "from: " << from << "\n";
  if (c.cache_bytes > 0.0) y << "cache: " << bytes_text(c.cache_bytes) << "\n";
  y << "fits:\n";
  for (const auto& [kind, f] : c.fits) {
    y << "  " << kind << ": {per_work: " << seconds_text(f.per_work_s)
      << ", offset: " << seconds_text(f.offset_s)
      << ", work: " << (f.work == hw::LinearFit::Work::macs ? "macs" : "elements")
      << ", points: " << f.points << ", r2: " << number_text(f.r2);
    if (f.beyond_cache_points > 0) {
      y << ",\n    beyond_cache: {per_work: " << seconds_text(f.beyond_cache_per_work_s)
        << ", offset: " << seconds_text(f.beyond_cache_offset_s)
        << ", points: " << f.beyond_cache_points << ", r2: " << number_text(f.beyond_cache_r2)
        << "}";
    } else if (const auto it = base.fits.find(kind);
               it != base.fits.end() && it->second.beyond_cache_points > 0) {
      y << ", beyond_cache: none";  // `from:` merges maps key by key: drop the base's regime
    }
    y << "}\n";
  }
  return y.str();
}

void print_fits(std::ostream& out, const hw::Calibration& c) {
  out << std::left << std::setw(14) << "op kind" << std::setw(10) << "work" << std::setw(15)
      << "per work [s]" << std::setw(15) << "offset [s]" << std::setw(8) << "R^2"
      << "points\n";
  auto row = [&out](const std::string& kind, const char* work, double a, double b, double r2,
                    int n) {
    char r2_text[16];
    std::snprintf(r2_text, sizeof r2_text, "%.4f", r2);
    out << std::left << std::setw(14) << kind << std::setw(10) << work << std::setw(15)
        << number_text(a) << std::setw(15) << number_text(b) << std::setw(8) << r2_text << n
        << "\n";
  };
  for (const auto& [kind, f] : c.fits) {
    const char* work = f.work == hw::LinearFit::Work::macs ? "MACs" : "elements";
    row(kind, work, f.per_work_s, f.offset_s, f.r2, f.points);
    if (f.beyond_cache_points > 0) {
      row("  > cache", work, f.beyond_cache_per_work_s, f.beyond_cache_offset_s, f.beyond_cache_r2,
          f.beyond_cache_points);
    }
  }
}

int run(const CalibrateOptions& o) {
  const std::string base = o.base.empty() ? config_root() + "/hardware/cpu_seed.yaml" : o.base;
  const hw::CpuSpec base_spec = hw::parse_cpu_spec(ConfigNode::load_file(base));  // fail early
  hw::CalibrationOptions options;
  if (!o.cache.empty()) {
    try {
      options.cache_bytes = parse_quantity(o.cache, Dimension::data);
    } catch (const Error& e) {
      throw Error(std::string("--cache: ") + e.what());
    }
  } else if (base_spec.cache_bytes > 0.0) {
    options.cache_bytes = base_spec.cache_bytes;
  }
  const hw::Calibration c = hw::calibrate_cpu(o.csv, options);
  check_output_path(o.out);  // after reading: the CSV and the base spec are inputs now

  const fs::path out_path = fs::absolute(o.out);
  // Relative when the two share a top-level folder (a checkout moves as a whole), else absolute.
  const fs::path base_path = fs::absolute(base).lexically_normal();
  const bool related = *std::next(base_path.begin()) == *std::next(out_path.begin());
  const fs::path from = related ? fs::relative(base_path, out_path.parent_path()) : base_path;
  const std::string text = fits_yaml(o.csv, from.generic_string(), base_spec, c);
  // What we write must load: checked before anything reaches the disk.
  hw::parse_cpu_spec(ConfigNode::parse(text, out_path.string(), out_path.parent_path().string()));
  write_output_file(o.out, text);

  std::cout << "calibrated " << c.fits.size() << " op kinds from " << c.rows << " rows of " << o.csv
            << "\n";
  print_fits(std::cout, c);
  std::cout << "wrote " << o.out << " (from: " << from.generic_string() << ")\n";
  return 0;
}

}  // namespace

void register_calibrate(CLI::App& app, CommandAction& action) {
  auto opts = std::make_shared<CalibrateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit per-op CPU time models (time = per_work * work + offset) to measured timings and\n"
      "write a CPU spec that inherits a base spec and adds the fits.\n\n"
      "TIMINGS is a CSV with columns tvm_func, compiler_name, microseconds, shape:\n"
      "  lightcode calibrate ../shared/reference/cpu_op_timings.csv --out my_cpu.yaml");
  cmd->add_option("timings", opts->csv, "Timings CSV file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", opts->out, "CPU spec (YAML) to write")->required();
  cmd->add_option("--base", opts->base,
                  "CPU spec the output inherits (default: configs/hardware/cpu_seed.yaml)");
  cmd->add_option(
      "--cache", opts->cache,
      "Last-level cache size splitting in-cache from beyond-cache rows, e.g. \"32 MiB\"\n"
      "(default: the base spec's `cache`, else 32 MiB; \"0 B\" fits one regime)");
  cmd->callback([opts, &action] { action = [opts] { return run(*opts); }; });
}

}  // namespace lightcode::app
