// Default-profile transfers: latency + bytes / bandwidth per hop, routing through SRAM,
// self-links, and errors that name the units.
#include <doctest/doctest.h>


#include "hw_models/link/link_spec.hpp"
#include "hw_models/link/link_timing.hpp"
#include "hw_models/link/link_transfer_model.hpp"
#include "sim/core/error.hpp"
#include "tests/support/errors.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

const std::vector<std::string> kUnits{"cpu", "phu", "gpu", "hbm", "sram"};
constexpr UnitType kCpu = 0, kPhu = 1, kGpu = 2, kHbm = 3, kSram = 4;

std::vector<LinkSpec> links_of(const std::string& yaml) {
  return parse_links(ConfigNode::parse(yaml, "system.yaml").at("links"));
}

const char* kLinks =
    "links:\n"
    "  - {src: hbm, dst: sram, latency: 1 ns, bandwidth: 100 GB/s, energy_per_bit: 1 pJ/bit, "
    "bidirectional: false}\n"
    "  - {src: sram, dst: cpu, latency: 0.5 ns, bandwidth: 50 GB/s, energy_per_bit: 0.25 pJ/bit}\n"
    "  - {src: sram, dst: phu, latency: 10 ns, bandwidth: 0 B/s, energy_per_bit: 0.5 pJ/bit}\n";

ir::TensorType floats(int64_t n) {
  return {ir::Shape{n}, ir::DType::float32};
}

using test::error_of;

}  // namespace

TEST_CASE("links parse with units, defaults and a place") {
  const std::vector<LinkSpec> links = links_of(kLinks);
  REQUIRE(links.size() == 3);
  CHECK(links[0].latency_s == doctest::Approx(1e-9));
  CHECK(links[0].bandwidth == doctest::Approx(100e9));
  CHECK(links[0].energy_per_bit_j == doctest::Approx(1e-12));
  CHECK_FALSE(links[0].bidirectional);
  CHECK(links[1].bidirectional);
  CHECK(links[2].bandwidth == 0.0);
  CHECK(links[1].where.line == 3);
  const LinkSpec bare = links_of("links: [{src: a, dst: b}]")[0];
  CHECK(bare.latency_s == 0.0);
  CHECK(bare.bandwidth == 0.0);
}

TEST_CASE("a direct link: latency + bytes / bandwidth, bits x energy per bit") {
  const auto t = make_link_transfer_model(kUnits, links_of(kLinks), kSram);
  const Cost small = t->estimate(floats(1000), kSram, kCpu);
  CHECK(small.time == Time::from_seconds(0.5e-9 + 4000.0 / 50e9));
  CHECK(small.energy.picojoules() == doctest::Approx(4000.0 * 8 * 0.25));
  CHECK(small.bytes_read == 4000);
  // Time grows with bytes.
  const Cost big = t->estimate(floats(1000000), kSram, kCpu);
  CHECK(big.time > small.time);
  CHECK(big.bound == Bound::memory);
  CHECK(t->estimate(floats(1), kSram, kCpu).bound == Bound::latency);
  // Bidirectional by default; bandwidth 0 is unlimited.
  CHECK(t->estimate(floats(1000), kCpu, kSram).time == small.time);
  CHECK(t->estimate(floats(1000000), kSram, kPhu).time == Time::from_seconds(10e-9));
}

TEST_CASE("pairs without a direct link route through sram, and the hops add") {
  const auto t = make_link_transfer_model(kUnits, links_of(kLinks), kSram);
  const ir::TensorType x = floats(250000);  // 1 MB
  const Cost hbm_cpu = t->estimate(x, kHbm, kCpu);
  CHECK(hbm_cpu.time == Time::from_seconds(1e-9 + 1e6 / 100e9 + 0.5e-9 + 1e6 / 50e9));
  CHECK(hbm_cpu.energy.picojoules() == doctest::Approx(8e6 * (1.0 + 0.25)));
  const Cost cpu_phu = t->estimate(x, kCpu, kPhu);
  CHECK(cpu_phu.time == Time::from_seconds(0.5e-9 + 1e6 / 50e9 + 10e-9));
  // CPU core to CPU core crosses the fabric: cpu -> sram -> cpu, like the original.
  const Cost cpu_cpu = t->estimate(x, kCpu, kCpu);
  CHECK(cpu_cpu.time == Time::from_seconds(2 * (0.5e-9 + 1e6 / 50e9)));
  CHECK(cpu_cpu.energy.picojoules() == doctest::Approx(2 * 8e6 * 0.25));
}

TEST_CASE("link_timing: occupancy holds the link, latency follows, and together they are the model's time") {
  const std::vector<LinkSpec> links = links_of(kLinks);
  const auto t = make_link_transfer_model(kUnits, links, kSram);
  const LinkTiming sram_cpu = link_timing(links[1], 4000);  // 0.5 ns, 50 GB/s
  CHECK(sram_cpu.occupancy == Time::ps(80000));
  CHECK(sram_cpu.latency == Time::ps(500));
  CHECK(sram_cpu.total() == t->estimate(floats(1000), kSram, kCpu).time);
  // Unlimited bandwidth occupies nothing.
  const LinkTiming sram_phu = link_timing(links[2], 4000000);
  CHECK(sram_phu.occupancy == Time::zero());
  CHECK(sram_phu.total() == t->estimate(floats(1000000), kSram, kPhu).time);
  // The total rounds once: 166.7 ps + 247.56 ps is 414 ps (rounding each first gives 415).
  const LinkSpec odd = links_of("links: [{src: a, dst: b, latency: 0.1667 ns, bandwidth: 307 GB/s}]")[0];
  const LinkTiming t76 = link_timing(odd, 76);
  CHECK(t76.occupancy == Time::ps(248));
  CHECK(t76.latency == Time::ps(166));
  CHECK(t76.total() == Time::from_seconds(0.1667e-9 + 76 / 307e9));
}

TEST_CASE("a self-link replaces the route through sram") {
  const auto t = make_link_transfer_model(
      kUnits, links_of(std::string(kLinks) + "  - {src: cpu, dst: cpu}\n"), kSram);
  const Cost c = t->estimate(floats(1000000), kCpu, kCpu);
  CHECK(c.time == Time::zero());
  CHECK(c.energy.picojoules() == 0.0);
}

TEST_CASE("a missing route is an error naming both units") {
  const auto t = make_link_transfer_model(kUnits, links_of(kLinks), kSram);
  const std::string msg = error_of([&] { t->estimate(floats(10), kCpu, kGpu); });
  CHECK(msg.find("'cpu'") != std::string::npos);
  CHECK(msg.find("'gpu'") != std::string::npos);
  CHECK(msg.find("sram") != std::string::npos);
  // hbm -> sram is one-way: nothing flows back to hbm.
  CHECK(error_of([&] { t->estimate(floats(10), kCpu, kHbm); }).find("'hbm'") != std::string::npos);
}

TEST_CASE("a link to a unit the system lacks, or a duplicate link, is a placed error") {
  const std::string unknown = error_of(
      [] { make_link_transfer_model(kUnits, links_of("links:\n  - {src: cpu, dst: gpuu}\n"), kSram); });
  CHECK(unknown.find("system.yaml:2") != std::string::npos);
  CHECK(unknown.find("'gpuu'") != std::string::npos);
  CHECK(unknown.find("units: cpu, phu, gpu, hbm, sram") != std::string::npos);
  const std::string dup =
      error_of([] { links_of("links:\n  - {src: cpu, dst: sram}\n  - {src: sram, dst: cpu}\n"); });
  CHECK(dup.find("system.yaml:3") != std::string::npos);
  CHECK(dup.find("second link") != std::string::npos);
  const std::string typo =
      error_of([] { links_of("links:\n  - {src: cpu, dst: sram, latncy: 1 ns}\n"); });
  CHECK(typo.find("latncy") != std::string::npos);
  CHECK(typo.find("did you mean 'latency'") != std::string::npos);
}
