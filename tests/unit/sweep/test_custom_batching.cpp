// A batching policy with a knob of its own is one file and one registration: this file is the
// file (the policy, its table, its parse), the push_back below is the registration, and a
// scenario reads, checks and runs it like a shipped one.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/serve/batching.hpp"
#include "sim/serve/register_policies.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;

namespace {

// One sequence at a time, start to finish; its prompt prefilled `chunk` tokens per iteration.
struct Solo : serve::Batcher {
  int64_t chunk = 64;
  explicit Solo(int64_t c) : chunk(c) {}
  serve::Formation form(serve::ReplicaState& r, Time) const override {
    serve::Formation f;
    r.make_room_for_decodes();
    if (r.running.empty() && !r.admit_head()) return f;
    serve::Sequence& s = r.running.front();
    if (s.decoding()) {
      f.slots.push_back(serve::ReplicaState::decode_slot(s));
    } else {
      f.slots.push_back({s.request, std::min(chunk, s.prefill_target - s.prefilled), s.prefilled, false});
    }
    return f;
  }
};

serve::BatchingPolicy solo_batching() {
  static const ParamTable table{
      "batching.solo", "One sequence at a time (a test's policy).",
      {Param::count("chunk", limits::kSequenceLength).fallback("64").doc("prompt tokens prefilled per iteration")}};
  return {"solo", "one sequence at a time, start to finish", &table,
          [](const Params& p) -> std::shared_ptr<const serve::Batcher> { return std::make_shared<Solo>(p.count("chunk")); }};
}

}  // namespace

TEST_CASE("a test-only batching policy with a knob of its own runs through a scenario") {
  serve::policies().batching.push_back(solo_batching());  // the one registration
  const test::Scratch s;
  const std::string trace = s.file("t.csv", "arrival_s,prompt_tokens,output_tokens\n0,40,3\n0,12,2\n");
  const std::string base = "model: gpt2\nstage: serve\nplacement_evaluations: 4\nsystem: " + test::source_dir() +
                           "/configs/systems/h100_sxm.yaml\ntrace: " + trace + "\n";
  const sweep::Scenario scenario =
      sweep::parse_scenario(base + "batching: {policy: solo, chunk: 16}\n", "solo.yaml", ".");
  const sweep::PointSpec& p = scenario.points.at(0);
  CHECK(dynamic_cast<const Solo&>(*p.serve.replicas.at(0).batching).chunk == 16);
  const results::PointResult r = sweep::run_point(p).result;
  REQUIRE(r.summary.status == results::Status::ok);
  // 40 tokens in chunks of 16 (3 iterations), 2 more decodes; then 12 in one and 1 decode.
  CHECK(r.summary.iterations == 3 + 2 + 1 + 1);
  CHECK(r.summary.output_tokens == 5);
  // Its knob is its own: beside another policy it is set but not read; its bound is its table's.
  try {
    sweep::parse_scenario(base + "batching: {policy: continuous, chunk: 16}\n", "other.yaml", ".");
    FAIL("a key the chosen policy does not own was read");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("other.yaml:6:39: batching.chunk: key 'chunk' is set but not read") == 0);
  }
  CHECK_THROWS_WITH_AS(sweep::parse_scenario(base + "batching: {policy: solo, chunk: 0}\n", "zero.yaml", "."),
                       doctest::Contains("batching.chunk: must be an integer from 1"), Error);
}
