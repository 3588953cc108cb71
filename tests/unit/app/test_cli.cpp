// End-to-end: the `lightcode` binary as a user runs it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

using lightcode::test::run_lightcode;

TEST_CASE("inspect a built-in GPT-2 as JSON") {
  const auto r = run_lightcode("inspect gpt2 --seq 5 --logits all --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["nodes"] == 1108);
  CHECK(j["macs"] == 618120960);
  CHECK(j["kinds"]["dense"] == 49);
  CHECK(j["largest_products"].size() == 10);
  CHECK(j["largest_products"][0]["kind"] == "dense");
  CHECK(j["largest_products"][0]["output"] == nlohmann::json::array({5, 50257}));
}

TEST_CASE("inspect prints a readable summary") {
  const auto r = run_lightcode("inspect gpt2 --seq 1400");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("nodes       1109") != std::string::npos);  // the last token's slice before lm_head
  CHECK(r.out.find("largest matrix products") != std::string::npos);
  CHECK(r.err.empty());
}

TEST_CASE("inspect a TVM graph file, re-sized") {
  const std::string path = lightcode::test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!lightcode::test::have_external(path)) return;
  const auto traced = run_lightcode("inspect " + path + " --json");
  REQUIRE(traced.exit_code == 0);
  CHECK(nlohmann::json::parse(traced.out)["macs"] == 618120960);
  const auto built = run_lightcode("inspect gpt2 --seq 150 --logits all --json");
  const auto resized = run_lightcode("inspect " + path + " --seq 150 --json");
  REQUIRE(resized.exit_code == 0);
  CHECK(nlohmann::json::parse(resized.out)["macs"] == nlohmann::json::parse(built.out)["macs"]);
}

TEST_CASE("an unknown model name is a clear error listing the built-in models") {
  const auto r = run_lightcode("inspect gtp2");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("gtp2") != std::string::npos);
  CHECK(r.err.find("gpt2-medium") != std::string::npos);
}

TEST_CASE("a negative sequence length is a clear error") {
  const auto r = run_lightcode("inspect gpt2 --seq -4");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("must be positive") != std::string::npos);
}

TEST_CASE("--help teaches the command") {
  const auto r = run_lightcode("inspect --help");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("--stage") != std::string::npos);
  CHECK(r.out.find("lightcode inspect gpt2") != std::string::npos);
}
