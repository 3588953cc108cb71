// `stage: serve` scenarios: the keys as read into a point, and a clear error, at the file's
// line, for every kind of bad input (the run-time errors are in test_serve_run.cpp).
#include <doctest/doctest.h>

#include <string>

#include "sim/core/error.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/lengths.hpp"
#include "sim/sweep/scenario.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scenario_text.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;

namespace {

std::string systems_dir() {
  return test::source_dir() + "/configs/systems/";
}

// A valid serve scenario with `extra` lines appended (or `replace` in place of the defaults).
std::string serve_text(const std::string& extra, bool with_requests = true) {
  std::string text =
      "model: gpt2\nstage: serve\nobjective: time\nreplicas:\n  - system: " + systems_dir() +
      "h100_sxm.yaml\n  - {system: " + systems_dir() + "gpu_dota_b.yaml, max_batch: 4}\n" +
      "batching: {policy: continuous, max_batch: 16, token_budget: 256}\n";
  if (with_requests) {
    text +=
        "requests:\n  count: 50\n  seed: 3\n  prompt: {distribution: uniform, min: 8, max: 64}\n"
        "  output: {distribution: fixed, value: 4}\narrival_rate: 40 req/s\n";
  }
  return text + extra;
}

std::string error_of(const test::Scratch& s, const std::string& text) {
  try {
    sweep::load_scenario(s.file("serve.yaml", text));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "serve scenario: replicas with their own batching keys and generated requests at a rate") {
  const test::Scratch s;
  const sweep::Scenario sc = sweep::load_scenario(s.file(
      "serve.yaml",
      test::scenario_text(
          serve_text(""),
          "slo: {ttft: 200 ms, tpot: 20 ms}\nsweep:\n  arrival_rate: [10 req/s, 20 req/s]\n")));
  REQUIRE(sc.points.size() == 2);
  const sweep::PointSpec& p = sc.points[1];
  CHECK(p.stage == Stage::serve);
  CHECK(p.fidelity == Fidelity::analytical);  // iterations are timed analytically
  REQUIRE(p.serve.replicas.size() == 2);
  const auto batching = [&](size_t i) {
    return dynamic_cast<const serve::ContinuousBatching&>(*p.serve.replicas.at(i).batching);
  };
  CHECK(batching(0).max_batch == 16);
  CHECK(batching(1).max_batch == 4);  // the replica's own key
  CHECK(batching(1).token_budget == 256);
  CHECK(p.serve.generated);
  CHECK(p.serve.generator.count == 50);
  CHECK(dynamic_cast<const serve::UniformLengths*>(p.serve.generator.prompt.get()) != nullptr);
  CHECK(dynamic_cast<const serve::FixedLengths&>(*p.serve.generator.output).value == 4);
  CHECK(sc.points[0].serve.arrival_rate_per_s == 10.0);
  CHECK(p.serve.arrival_rate_per_s == 20.0);
  CHECK(p.serve.slo_ttft == Time::ps(200'000'000'000));
  CHECK(p.serve.dispatch_policy == "round_robin");
}

TEST_CASE("serve scenario: keys no serve point reads are errors at their line") {
  const test::Scratch s;
  // A serve point reads the replicas' systems, not `system`.
  CHECK(error_of(s, serve_text("system: " + systems_dir() + "gpu.yaml\n"))
            .find("serve.yaml:14:9: system: key 'system' is set but not read") !=
        std::string::npos);
  // A length distribution's keys beyond what it reads.
  const std::string extra_key =
      error_of(s, serve_text("", false) +
                      "requests:\n  count: 5\n  prompt: {distribution: fixed, value: 8, sigma: 1}\n"
                      "  output: {distribution: fixed, value: 4}\narrival_rate: 1 req/s\n");
  CHECK(extra_key.find("sigma: key 'sigma' is set but not read") != std::string::npos);
  // The dispatch table without prompt-length dispatch: prompt_length's key, unread here.
  CHECK(error_of(s, serve_text("dispatch: {policy: round_robin, table: " + systems_dir() + "gpu.yaml}\n"))
            .find("key 'table' is set but not read by this scenario (the policy chosen beside it has no such "
                  "key)") != std::string::npos);
  // Serving keys on a prefill point.
  CHECK(
      error_of(s, "model: gpt2\nsequence_length: 8\nsystem: " + systems_dir() +
                      "gpu.yaml\ndispatch: round_robin\n")
          .find(
              "key 'dispatch' is set but not read by this scenario (no point has stage: serve)") !=
      std::string::npos);
}

namespace {

// The error of a scenario generating requests with `prompt` lengths at `rate`.
std::string requests_error(const test::Scratch& s, const std::string& prompt,
                           const std::string& rate) {
  return error_of(s, serve_text("", false) + "requests:\n  count: 5\n  prompt: " + prompt +
                         "\n  output: {distribution: fixed, value: 4}\narrival_rate: " + rate +
                         "\n");
}

}  // namespace

TEST_CASE("serve scenario: negative rates and lengths are errors naming file and line") {
  const test::Scratch s;
  const std::string rate = requests_error(s, "{distribution: fixed, value: 8}", "-3 req/s");
  CHECK(rate.find("serve.yaml:12:15: arrival_rate") != std::string::npos);
  CHECK(rate.find("positive") != std::string::npos);
  const std::string length = requests_error(s, "{distribution: fixed, value: -8}", "3 req/s");
  INFO(length);
  CHECK(length.find("serve.yaml:10:") != std::string::npos);
  CHECK(length.find("requests.prompt.value: must be an integer from 1") != std::string::npos);
  CHECK(requests_error(s, "{distribution: uniform, min: 9, max: 8}", "3 req/s")
            .find("max 8 is below min 9") != std::string::npos);
  CHECK(requests_error(s, "{distribution: zipf, value: 8}", "3 req/s")
            .find("unknown length distribution 'zipf' (known: fixed, uniform, lognormal)") !=
        std::string::npos);
}

TEST_CASE("serve scenario: what a serve point needs and cannot have") {
  const test::Scratch s;
  CHECK(error_of(s,
                 "model: gpt2\nstage: serve\nrequests: {count: 1, prompt: {distribution: fixed, "
                 "value: 8}, "
                 "output: {distribution: fixed, value: 2}}\narrival_rate: 1 req/s\n")
            .find("stage serve needs `replicas`") != std::string::npos);
  const std::string trace = s.file("t.csv", "arrival_s,prompt_tokens,output_tokens\n0,8,2\n");
  CHECK(error_of(s, serve_text("trace: " + trace + "\n")).find("give one of them") !=
        std::string::npos);
  CHECK(error_of(s, serve_text("", false)).find("give one of them") != std::string::npos);
  CHECK(error_of(s, serve_text("dispatch: prompt_length\n")).find("missing key 'table'") != std::string::npos);
  CHECK(error_of(s, serve_text("dispatch: fastest\n")).find("unknown dispatch policy 'fastest'") !=
        std::string::npos);
  std::string eager = serve_text("");
  eager.replace(eager.find("policy: continuous"), 18, "policy: eager");
  CHECK(error_of(s, eager).find("batching.policy: unknown batching policy 'eager'") !=
        std::string::npos);
  if (!test::have_external(test::tvm_graph("gpt2_prefill_seq5_graph.json"))) return;
  const std::string tvm =
      error_of(s, "model: " + test::tvm_graph("gpt2_prefill_seq5_graph.json") + "\n" +
                      serve_text("").substr(std::string("model: gpt2\n").size()));
  CHECK(tvm.find("from a built-in model, not a graph file (TVM or ONNX)") != std::string::npos);
}
