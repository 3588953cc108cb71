// The command line over scenarios: `lightcode list` prints every registry, --set and its
// named sugar take the file's path (an unread key is the file's error), outputs a stage
// cannot have are refused, and a summary figure that does not apply is NaN for pandas.
#include <doctest/doctest.h>

#include <string>

#include "tests/support/paths.hpp"
#include "tests/support/python.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::source_dir;

namespace {

// A serve scenario of three requests on one H100 SXM.
std::string serve_scenario(const lightcode::test::Scratch& s) {
  const std::string trace = s.file("t.csv", "arrival_s,prompt_tokens,output_tokens\n0,16,3\n0,40,2\n0.0001,8,2\n");
  return s.file("serve.yaml", "model: gpt2\nstage: serve\nplacement_evaluations: 4\nsystem: " + source_dir() +
                                  "/configs/systems/h100_sxm.yaml\ntrace: " + trace + "\n");
}

}  // namespace

TEST_CASE("lightcode list prints every registry, and a policy's own keys") {
  const auto r = run_lightcode("list");
  REQUIRE(r.exit_code == 0);
  for (const char* title : {"hardware families", "profiles", "scheduling policies", "objectives", "fusion rules",
                            "partition rules", "stages", "batching policies", "dispatch policies", "arrival processes",
                            "length distributions", "built-in models"}) {
    CAPTURE(title);
    CHECK(r.out.find(title) != std::string::npos);
  }
  for (const char* entry : {"  gpu ", "  lightcode ", "  articulation ", "  serve ", "  continuous ", "  prompt_length ",
                            "  gamma ", "  lognormal ", "  llama-2-7b "}) {
    CAPTURE(entry);
    CHECK(r.out.find(entry) != std::string::npos);
  }
  const auto batching = run_lightcode("list batching");
  REQUIRE(batching.exit_code == 0);
  CHECK(batching.out.find("max_batch") != std::string::npos);
  CHECK(batching.out.find("token_budget") != std::string::npos);
  CHECK(batching.out.find("timeout") != std::string::npos);
  const auto bad = run_lightcode("list tpus");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'tpus' is not one of families, profiles, schedulers") != std::string::npos);
}

TEST_CASE("run --set and the named flags: the file's errors, registry choices, outputs a stage cannot have") {
  const lightcode::test::Scratch s;
  const std::string serve = serve_scenario(s);
  // --fidelity is --set fidelity=...: a serve point does not read it, as in the file.
  const auto fidelity = run_lightcode("run " + serve + " --fidelity event --out " + s.path("a.h5"));
  CHECK(fidelity.exit_code == 2);
  CHECK(fidelity.err.find("--set fidelity: fidelity: key 'fidelity' is set but not read by this scenario (no point "
                          "has stage: prefill or decode or generate)") != std::string::npos);
  // A timeline of placed tasks is not what a serve point has.
  const auto trace = run_lightcode("run " + serve + " --trace " + s.path("t.json") + " --out " + s.path("b.h5"));
  CHECK(trace.exit_code == 2);
  CHECK(trace.err.find("--trace writes a timeline of placed tasks, which point p0000 (stage serve) does not have") !=
        std::string::npos);
  // Choices come from the registries.
  const auto profile = run_lightcode("run " + serve + " --profile fastest");
  CHECK(profile.exit_code != 0);
  CHECK(profile.err.find("default") != std::string::npos);
  CHECK(profile.err.find("lightcode") != std::string::npos);
  // A --set of a serving key runs.
  const auto ok = run_lightcode("run " + serve + " --set batching.max_batch=2 --set dispatch=least_outstanding_tokens --out " +
                                s.path("c.h5"));
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("least_outstanding_tokens") != std::string::npos);
}

TEST_CASE("a serve point's graph figures and a prefill point's serving figures are NaN for pandas") {
  lightcode::test::require_h5py();
  const lightcode::test::Scratch s;
  const std::string out = s.path("mixed.h5");
  serve_scenario(s);  // writes the trace, t.csv
  // One scenario, both stages: each reads its keys (sequence_length and fidelity the prefill's).
  const std::string scenario = s.file(
      "both.yaml", "model: gpt2\nplacement_evaluations: 4\nsequence_length: 8\nfidelity: analytical\nsystem: " +
                       source_dir() + "/configs/systems/h100_sxm.yaml\ntrace: " + s.path("t.csv") +
                       "\nsweep:\n  stage: [prefill, serve]\n");
  const auto both = run_lightcode("run " + scenario + " --out " + out);
  INFO(both.err);
  REQUIRE(both.exit_code == 0);
  const std::string py = lightcode::test::run_python(
      "import sys, math\nsys.path.insert(0, '" + source_dir() + "/tools')\nimport lightcode_results as lr\n"
      "df = lr.load_points('" + out + "')\n"
      "for _, row in df.iterrows():\n"
      "    print(row['stage'], 'nodes', 'nan' if math.isnan(row['nodes']) else int(row['nodes']),\n"
      "          'requests', 'nan' if math.isnan(row['requests']) else int(row['requests']))\n");
  INFO(py);
  CHECK(py.find("prefill nodes ") != std::string::npos);
  CHECK(py.find("requests nan\n") != std::string::npos);
  CHECK(py.find("serve nodes nan requests 3\n") != std::string::npos);
}
