// Fuzz target: a scenario (scenarios/*.yaml) through sweep::parse_scenario, resolved against
// the source tree's scenarios/ folder (so ../configs/systems/cpu.yaml and the built-in models
// resolve), then every point's fields are checked (a serve point's replicas and requests too)
// and validate_point_inputs loads each system, model, trace and dispatch table the points name.
#include <cstdint>
#include <string>

#include "sim/core/limits.hpp"
#include "sim/serve/arrivals.hpp"
#include "hw_models/registry.hpp"
#include "sim/sweep/scenario.hpp"
#include "sim/stages/stage.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

namespace {

// validate_point_inputs loads one system per distinct override set: a sweep over 100,000
// core counts is legitimate but is 100,000 system loads. Bound the work per input.
constexpr size_t kMaxValidatedPoints = 256;

bool one_of(const std::string& s, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed) {
    if (s == a) return true;
  }
  return false;
}

// A serve point: replicas (each a system) within the limit, and either a trace or generated
// requests whose rate, count and gamma cv are in range.
void check_serve(const sweep::PointSpec& p, const std::string& at) {
  const sweep::ServePoint& s = p.serve;
  fuzz::require(!s.replicas.empty() && s.replicas.size() <= static_cast<size_t>(limits::kReplicas.value),
                at + std::to_string(s.replicas.size()) + " replicas");
  for (const sweep::ServeReplica& r : s.replicas) {
    fuzz::require(!r.system.empty(), at + "a replica without a system");
    fuzz::require(r.batching != nullptr, at + "a replica without a batching policy");
  }
  fuzz::require(s.dispatch != nullptr, at + "no dispatch policy");
  fuzz::require(s.generated != !s.trace.empty(), at + "neither or both of a trace and generated requests");
  if (s.generated) {
    fuzz::require_finite(s.arrival_rate_per_s, at + "arrival rate");
    fuzz::require(s.arrival_rate_per_s > 0.0, at + "a non-positive arrival rate");
    fuzz::require(s.generator.count >= 1 && s.generator.count <= limits::kRequests.value, at + "request count");
    fuzz::require(s.generator.arrival && s.generator.prompt && s.generator.output, at + "a generator part missing");
    if (const auto* gamma = dynamic_cast<const serve::GammaArrivals*>(s.generator.arrival.get())) {
      fuzz::require(gamma->cv > 0.0 && gamma->cv <= serve::kGammaMaxCv, at + "gamma cv out of range");
    }
  }
  fuzz::require(s.slo_ttft >= Time::zero() && s.slo_tpot >= Time::zero(), at + "a negative SLO");
}

void check_point(const sweep::PointSpec& p) {
  const std::string at = "point " + p.id + ": ";
  fuzz::require(!p.id.empty(), "a point without an id");
  fuzz::require(!p.model.empty(), at + "empty model");
  if (p.stage == Stage::serve) {
    check_serve(p, at);
  } else {
    fuzz::require(!p.system.empty(), at + "empty system");
    fuzz::require(p.sequence_length >= 1 && p.sequence_length <= limits::kSequenceLength.value,
                  at + "sequence_length " + std::to_string(p.sequence_length) + " out of range");
  }
  fuzz::require(p.new_tokens >= 0 && p.new_tokens <= limits::kNewTokens.value,
                at + "new_tokens " + std::to_string(p.new_tokens) + " out of range");
  if (p.stage == Stage::generate) fuzz::require(p.new_tokens >= 1, at + "generate without new_tokens");
  if (p.traced_length) {
    fuzz::require(*p.traced_length >= 1 && *p.traced_length <= limits::kSequenceLength.value,
                  at + "traced_length " + std::to_string(*p.traced_length) + " out of range");
  }
  fuzz::require(one_of(p.objective, {"time", "energy", "edp"}),
                at + "objective '" + p.objective + "'");
  fuzz::require(hw::default_registry().find_profile(p.profile) != nullptr, at + "profile '" + p.profile + "'");
}

}  // namespace


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = fuzz::source_dir() + "/scenarios";
  return fuzz::run(data, size, [](std::string_view text) {
    const sweep::Scenario s = sweep::parse_scenario(text, "<fuzz>/scenario.yaml", dir);
    fuzz::require(!s.points.empty(), "a scenario with no points");
    fuzz::require(s.points.size() <= static_cast<size_t>(limits::kPoints.value),
                  "more points than the limit");
    for (const sweep::PointSpec& p : s.points) check_point(p);
    if (s.points.size() <= kMaxValidatedPoints) sweep::validate_point_inputs(s.points);
  });
}
