// A replica's KV capacity: the input memory's capacity less the weights, in tokens of the
// model's KV geometry.
#include <doctest/doctest.h>

#include <string>

#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/replica_memory.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

hw::System load_system(const std::string& file) {
  return hw::System::load(test::source_dir() + "/configs/systems/" + file,
                          hw::profile_named("default"));
}

}  // namespace

TEST_CASE("KV tokens on one H100: 80 GB less the weights over a token's keys and values") {
  const serve::ReplicaMemory m =
      serve::replica_memory(frontend::builtin_model("llama-2-7b"), load_system("h100_sxm.yaml"));
  CHECK(m.capacity_bytes == 80000000000);
  // 6.74 B parameters in float16, and a token's K and V: 2 x 32 layers x 32 heads x 128 x 2 B.
  CHECK((m.parameter_bytes > 13400000000 && m.parameter_bytes < 13600000000));
  CHECK(m.kv_bytes_per_token == 524288);
  CHECK(m.kv_tokens == (m.capacity_bytes - m.parameter_bytes) / 524288);
  // Grouped-query attention: 8 KV heads of 32 hold four times the tokens per byte.
  const serve::ReplicaMemory g =
      serve::replica_memory(frontend::builtin_model("llama-3-8b"), load_system("h100_sxm.yaml"));
  CHECK(g.kv_bytes_per_token == 131072);
  MESSAGE("llama-2-7b: " << m.kv_tokens << " KV tokens, llama-3-8b: " << g.kv_tokens);
}

TEST_CASE("weights that do not fit and a memory without capacity are errors") {
  CHECK_THROWS_WITH_AS(
      serve::replica_memory(frontend::builtin_model("llama-2-70b"), load_system("h100_sxm.yaml")),
      doctest::Contains("llama-2-70b does not fit system 'H100-SXM'"), Error);
  CHECK_THROWS_WITH_AS(serve::replica_memory(frontend::builtin_model("gpt2"), load_system("gpu.yaml")),
                       doctest::Contains("has no capacity, so nothing bounds the KV cache"), Error);
}
