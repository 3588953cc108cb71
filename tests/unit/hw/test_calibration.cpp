// CPU calibration from measured timings: the reference CSV reproduces the original's fits;
// malformed rows are placed errors.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "hw_models/cpu/calibration.hpp"
#include "hw_models/cpu/cpu_model.hpp"
#include "sim/core/error.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/run.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

std::string write_csv(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string calibration_error(const std::string& path) {
  try {
    read_timings_csv(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kHeader = "tvm_func,compiler_name,microseconds,shape\n";

}  // namespace

TEST_CASE("the reference timings give the original's dense slope") {
  const std::string csv = test::reference_dir() + "/cpu_op_timings.csv";
  if (!test::have_external(csv)) return;
  const Calibration c = calibrate_cpu(csv);
  CHECK(c.rows == 468);
  const LinearFit& dense = c.fits.at("dense");
  CHECK(dense.work == LinearFit::Work::macs);
  CHECK(std::fabs(dense.per_work_s / 6.845684637179875e-11 - 1.0) < 0.25);
  CHECK(dense.points == 48);
  CHECK(dense.r2 > 0.9);
  // GPT-2's vocabulary projection (a 154 MB weight) is its own regime, as in the original.
  CHECK(dense.beyond_cache_points == 12);
  CHECK(std::fabs(dense.beyond_cache_per_work_s / 3.554631597170242e-10 - 1.0) < 0.25);
  const LinearFit& add = c.fits.at("add");
  CHECK(add.work == LinearFit::Work::elements);
  CHECK(std::fabs(add.per_work_s / 5.728114536194012e-11 - 1.0) < 0.25);
  CHECK(add.points == 108);
  CHECK(c.cache_bytes > 0.0);
  for (const auto& fit : c.fits) {
    CAPTURE(fit.first);
    CHECK(fit.second.per_work_s >= 0.0);
  }
}

TEST_CASE("calibrated fits predict the measured rows they came from") {
  const std::string csv = test::reference_dir() + "/cpu_op_timings.csv";
  if (!test::have_external(csv)) return;
  const Calibration c = calibrate_cpu(csv);
  CpuSpec spec;
  spec.clock_hz = 3.208e9;
  spec.cache_bytes = c.cache_bytes;
  spec.fits = c.fits;
  const auto cpu = make_cpu_model(spec);
  // tvmgen_default_fused_nn_dense_2: [13, 768] x [3072, 768] measured 2272.3 us.
  ir::Node d;
  d.kind = ir::OpKind::dense;
  d.kind_name = "dense";
  d.input_types = {{ir::Shape{13, 768}, ir::DType::float32},
                   {ir::Shape{3072, 768}, ir::DType::float32}};
  d.inputs.resize(2);
  d.outputs = {{ir::Shape{13, 3072}, ir::DType::float32}};
  REQUIRE(cpu->algorithms(d).ids[0] == kCpuCalibrated);
  CHECK(cpu->estimate(d, kCpuCalibrated).time.seconds() == doctest::Approx(2272.3e-6).epsilon(0.2));
}

TEST_CASE("a constant fit when time does not grow with work") {
  const std::string path =
      write_csv("lc_calib_const.csv", std::string(kHeader) +
                                          "f,nop,0.2,\"[[[1, 2]], [[1, 2]]]\"\n"
                                          "f,nop,0.1,\"[[[1, 9]], [[1, 9]]]\"\n");
  const Calibration c = calibrate_cpu(path);
  CHECK(c.fits.at("nop").per_work_s == 0.0);
  CHECK(c.fits.at("nop").offset_s == doctest::Approx(0.15e-6));
  CHECK(c.fits.at("nop").points == 2);
}

TEST_CASE("malformed rows are errors with file and line") {
  const std::string bad_shape = write_csv(
      "lc_calib_shape.csv", std::string(kHeader) + "f,add,0.2,\"[[[1, 2]], [[1, 2]]]\"\n" +
                                "g,add,0.3,\"[[[1, 2], [[1, 2]]]\"\n");
  std::string msg = calibration_error(bad_shape);
  CHECK(msg.find("lc_calib_shape.csv:3") != std::string::npos);
  CHECK(msg.find("shape") != std::string::npos);

  const std::string bad_time =
      write_csv("lc_calib_time.csv", std::string(kHeader) + "f,add,fast,\"[[[1]], [[1]]]\"\n");
  msg = calibration_error(bad_time);
  CHECK(msg.find("lc_calib_time.csv:2") != std::string::npos);
  CHECK(msg.find("microseconds") != std::string::npos);

  const std::string short_row =
      write_csv("lc_calib_short.csv", std::string(kHeader) + "f,add,0.2\n");
  CHECK(calibration_error(short_row).find("lc_calib_short.csv:2") != std::string::npos);

  const std::string no_column = write_csv("lc_calib_cols.csv", "tvm_func,compiler_name,shape\n");
  msg = calibration_error(no_column);
  CHECK(msg.find("lc_calib_cols.csv:1") != std::string::npos);
  CHECK(msg.find("microseconds") != std::string::npos);
}

TEST_CASE("lightcode calibrate writes a CPU spec that inherits the base and loads") {
  const std::string csv = test::reference_dir() + "/cpu_op_timings.csv";
  if (!test::have_external(csv)) return;
  const auto dir = std::filesystem::temp_directory_path() / "lc_calibrate_cli";
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "cpu.yaml").string();
  const std::string base = test::source_dir() + "/configs/hardware/cpu_seed.yaml";
  test::RunResult r = test::run_lightcode("calibrate " + csv + " --out " + out + " --base " + base);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("dense") != std::string::npos);
  CHECK(r.out.find("points") != std::string::npos);
  CpuSpec spec = parse_cpu_spec(ConfigNode::load_file(out));
  CHECK(spec.clock_hz == doctest::Approx(3.208e9));  // from the base
  CHECK(std::fabs(spec.fits.at("dense").per_work_s / 6.845684637179875e-11 - 1.0) < 0.25);
  CHECK(spec.fits.at("dense").points == 48);
  CHECK(spec.fits.count("tanh") == 1);  // measured kinds the base has no fit for
  CHECK(spec.fits.count("pack") == 1);  // base fits the CSV does not measure are kept

  // One regime: the base's beyond_cache regime must not survive the merge.
  r = test::run_lightcode("calibrate " + csv + " --out " + out + " --base " + base +
                          " --cache '0 B'");
  REQUIRE(r.exit_code == 0);
  spec = parse_cpu_spec(ConfigNode::load_file(out));
  CHECK(spec.fits.at("dense").beyond_cache_points == 0);
  CHECK(spec.fits.at("dense").points == 60);

  r = test::run_lightcode("calibrate " + csv + " --out " + out + " --cache 'lots'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--cache") != std::string::npos);
}

TEST_CASE("a deeply nested shape is a placed error, not a stack overflow") {
  const std::string nested = std::string(200000, '[') + std::string(200000, ']');
  try {
    parse_timings_csv(std::string(kHeader) + "f,add,0.2,\"" + nested + "\"\n", "deep.csv");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "deep.csv:2: shape: '" + std::string(61, '[') +
                                       "...' is not [[input shapes], [output shapes]] with an output");
  }
}

TEST_CASE("shapes whose counts overflow int64 are placed errors") {
  try {
    parse_timings_csv(std::string(kHeader) + "f,dense,0.2,\"[[[4294967296, 4294967296]], [[4294967296, 4294967296]]]\"\n",
                      "big.csv");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "big.csv:2: shape: the elements of a shape exceeds the representable 9,223,372,036,854,775,807");
  }
}

TEST_CASE("timings too large for a finite fit are an error, and calibrate leaves no file") {
  const std::string csv = write_csv("lc_calib_huge.csv", std::string(kHeader) +
                                                             "f,add,1e300,\"[[[1, 2]], [[1, 2]]]\"\n"
                                                             "g,add,1e300,\"[[[1, 4]], [[1, 4]]]\"\n"
                                                             "h,add,3e300,\"[[[1, 8]], [[1, 8]]]\"\n");
  try {
    fit_timings(read_timings_csv(csv));
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find(csv + ":2: the fit for 'add' is not a finite number") == 0);
  }
  const auto out = std::filesystem::temp_directory_path() / "lc_calib_huge_out.yaml";
  std::filesystem::remove(out);
  const test::RunResult r = test::run_lightcode("calibrate " + csv + " --out " + out.string());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is not a finite number") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));  // no YAML with NaN coefficients
}
