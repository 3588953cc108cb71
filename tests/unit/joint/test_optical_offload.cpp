// A photonic chip over an optical link (configs/systems/h100_dota_b_optical.yaml): the default
// profile's placement, under the energy objective, offloads matrix products from the H100 to
// the remote DOTA-B when the link pays, and keeps them on the GPU when the same link is made
// costly. The workload is BERT-base prefill at 128 tokens with every matrix product requiring
// 4 bits (the DOTA-B's precision), so running them on the 4-bit chip is allowed, not assumed.
//   - shipped link figures: the attention projections run on the PHU, their operands cross
//     the optical link (sram -> phu), and the run takes less energy than on the H100 alone
//     (h100_sxm.yaml);
//   - the same system with the link made costly (a quarter of its bandwidth: one optical
//     chiplet's instead of four; or ten times its energy per bit): no product runs on the PHU,
//     and the run takes more energy than with the shipped link.
// Were the link's cost ignored, the costly link would change nothing and the second case's
// placements would fail (with the link made free, 60 of the 96 products go to the PHU).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "hw_models/system.hpp"
#include "sim/core/config.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/stages/stage.hpp"
#include "tests/support/files.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

const char* const kOpticalSystem = "h100_dota_b_optical.yaml";
const char* const kOpticalLink = "{src: sram, dst: phu,";  // the line of the optical link
const char* const kOffloadedProduct = "encoder.layer.0.attention.self.query";

sweep::PointSpec offload_point(const std::string& system_file) {
  sweep::PointSpec p = test::analytical_point("bert-base", 128, system_file);
  p.objective = "energy";
  p.precision = 4;
  return p;
}

// The shipped optical system's text with one figure of its optical link replaced, e.g.
// ("bandwidth", "256 GB/s"). Fails the test when the link or the key is not where it was.
std::string with_optical_link_figure(const std::string& key, const std::string& value) {
  std::string text = test::slurp(test::system_file("h100_dota_b_optical"));
  const size_t line = text.find(kOpticalLink);
  REQUIRE(line != std::string::npos);
  const size_t line_end = text.find('\n', line);
  const size_t at = text.find(key + ": ", line);
  REQUIRE((at != std::string::npos && at < line_end));
  const size_t begin = at + key.size() + 2;
  const size_t end = text.find_first_of(",}", begin);
  text.replace(begin, end - begin, value);
  return text;
}

// The point on a system given as text (relative paths against configs/systems), as
// run_point runs an analytical prefill point: placed, expanded, scheduled and reported.
results::PointResult run_on_system_text(const sweep::PointSpec& point, const std::string& text) {
  const auto system = std::make_shared<const hw::System>(hw::System::from_config(
      ConfigNode::parse(text, "optical_variant.yaml", test::source_dir() + "/configs/systems"),
      hw::profile_named(point.profile)));
  sweep::PlannedPoint planned = sweep::plan_point(point, nullptr, system);
  sweep::fill_report(planned.run.tasks, planned.run.schedule, *system, planned.run.result);
  return planned.run.result;
}

// The unit of the task that ran `op` (its name, or a fused kernel named after it), "" if none.
std::string unit_running(const results::PointResult& r, const std::string& op) {
  for (const results::TaskRecord& t : r.tasks) {
    if (t.name == op || t.name.rfind(op + "/", 0) == 0) {
      if (t.op != "split_sram" && t.op != "merge_sram") return t.hardware;
    }
  }
  return "";
}

int64_t tasks_on(const results::PointResult& r, const std::string& hardware) {
  int64_t n = 0;
  for (const results::TaskRecord& t : r.tasks) n += t.hardware == hardware ? 1 : 0;
  return n;
}

double link_energy_pj(const results::PointResult& r, const std::string& channel) {
  double pj = 0.0;
  for (const results::EnergyRow& e : r.energy) pj += e.hardware == channel ? e.energy_pj : 0.0;
  return pj;
}

}  // namespace

TEST_CASE("over the shipped optical link the selector offloads products to the DOTA-B, and it pays") {
  const results::PointResult offloaded = sweep::run_point(offload_point(kOpticalSystem)).result;
  const results::PointResult gpu_alone = sweep::run_point(offload_point("h100_sxm.yaml")).result;
  REQUIRE(offloaded.summary.status == results::Status::ok);
  REQUIRE(gpu_alone.summary.status == results::Status::ok);

  CHECK(unit_running(offloaded, kOffloadedProduct) == "phu");
  CHECK(offloaded.summary.photonic_selected > 0);
  CHECK(tasks_on(offloaded, "phu") == offloaded.summary.photonic_selected);
  // Their operands and results crossed the optical link, and were charged for it.
  CHECK(link_energy_pj(offloaded, "sram->phu") > 0.0);
  CHECK(link_energy_pj(offloaded, "phu->sram") > 0.0);
  // The energy objective's figure: below the H100's alone, the link's energy and the PHU's
  // static power over the whole run included.
  CHECK(offloaded.summary.energy_pj < gpu_alone.summary.energy_pj);
  MESSAGE("offloaded ", offloaded.summary.photonic_selected, " of ", offloaded.summary.photonic_possible,
          " products: ", offloaded.summary.energy_pj, " pJ in ", offloaded.summary.makespan.seconds(),
          " s; the H100 alone ", gpu_alone.summary.energy_pj, " pJ in ", gpu_alone.summary.makespan.seconds(), " s");
}

TEST_CASE("over a costly optical link the selector keeps the products on the GPU") {
  const sweep::PointSpec point = offload_point(kOpticalSystem);
  const results::PointResult shipped = sweep::run_point(point).result;
  REQUIRE(shipped.summary.photonic_selected > 0);

  auto check_kept_on_gpu = [&](const results::PointResult& costly) {
    REQUIRE(costly.summary.status == results::Status::ok);
    CHECK(unit_running(costly, kOffloadedProduct) == "gpu");
    CHECK(costly.summary.photonic_selected == 0);
    CHECK(tasks_on(costly, "phu") == 0);
    CHECK(link_energy_pj(costly, "sram->phu") == 0.0);
    // The chip is still there (its static power is charged) but unused: the offload was worth it.
    CHECK(costly.summary.energy_pj > shipped.summary.energy_pj);
  };
  SUBCASE("one optical chiplet's bandwidth, a quarter of the shipped link's") {
    check_kept_on_gpu(run_on_system_text(point, with_optical_link_figure("bandwidth", "256 GB/s")));
  }
  SUBCASE("ten times the shipped energy per bit") {
    check_kept_on_gpu(run_on_system_text(point, with_optical_link_figure("energy_per_bit", "100 pJ/bit")));
  }
}
