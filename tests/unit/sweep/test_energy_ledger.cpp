// The electronic energy ledger on whole points (issue 25): a decode step's HBM energy is its
// kernels' bytes times the energy per byte, charged once (the HBM unit charges no read of its
// own); Llama-2-7B prefill draws, on the H100 and the A100, an average power that rises with the
// prompt towards the power limit, as GEMM-bound work does on real GPUs.
#include <doctest/doctest.h>

#include <string>

#include "hw_models/gpu/gpu_power_fit.hpp"
#include "sim/results/console_table.hpp"
#include "sim/sweep/run_point.hpp"
#include "tests/support/point.hpp"

using namespace lightcode;

namespace {

double ledger_row(const results::PointResult& r, const std::string& hardware, const std::string& category) {
  double sum = 0.0;
  for (const results::EnergyRow& row : r.energy) {
    if (row.hardware == hardware && row.category == category) sum += row.energy_pj;
  }
  return sum;
}

// The GPU's average board power over a prefill: its dynamic energy and idle power over the
// makespan.
double gpu_watts(const results::PointResult& r) {
  double pj = 0.0;
  for (const results::EnergyRow& row : r.energy) {
    if (row.hardware == "gpu") pj += row.energy_pj;
  }
  return pj * 1e-12 / r.summary.makespan.seconds();
}

}  // namespace

TEST_CASE("ledger: a llama-2-7b decode step's HBM energy is its kernels' bytes x energy per byte, once") {
  sweep::PointSpec p = test::analytical_point("llama-2-7b", 512, "h100_sxm.yaml");
  p.stage = Stage::decode;
  const sweep::PointRun run = sweep::run_point(p);
  double gpu_bytes = 0.0;
  for (const opt::Task& t : run.tasks.tasks) {
    if (t.cost.parts[hw::EnergyPart::hbm].picojoules() > 0.0)
      gpu_bytes += static_cast<double>(t.cost.bytes_read + t.cost.bytes_written);
  }
  // Every weight (13.5 GB in bf16) and the 512-token KV cache (268 MB) read at least once.
  CHECK(gpu_bytes > 13.4e9 + 0.26e9);
  CHECK(gpu_bytes < 1.05 * (13.5e9 + 0.27e9));
  const double per_byte_pj = 8.0 * hw::gpu_power::kHbmEnergyPerBitJ * 1e12;
  CHECK(ledger_row(run.result, "gpu", "hbm") == doctest::Approx(gpu_bytes * per_byte_pj).epsilon(1e-9));
  // Nothing else charges those reads: the HBM unit's own row is zero and no link carries them.
  CHECK(ledger_row(run.result, "hbm", "memory") == 0.0);
  CHECK(ledger_row(run.result, "hbm->gpu", "data_movement") == 0.0);
}

TEST_CASE("llama-2-7b prefill power: rising with the prompt, 55-100 % of the limit at 2048 and 8192 tokens") {
  for (const auto& [system_file, limit] : {std::pair{"h100_sxm.yaml", 700.0}, std::pair{"a100_sxm.yaml", 400.0}}) {
    const char* system = system_file;  // clang 14 does not capture structured bindings (CAPTURE)
    CAPTURE(system);
    double at[3] = {};
    const int64_t lengths[3] = {128, 2048, 8192};
    for (int i = 0; i < 3; ++i) at[i] = gpu_watts(sweep::run_point(test::analytical_point("llama-2-7b", lengths[i], system)).result);
    MESSAGE(system << ": " << at[0] << " W at 128 tokens, " << at[1] << " W at 2048, " << at[2] << " W at 8192");
    CHECK(at[1] > at[0]);
    CHECK(at[1] >= 0.55 * limit);
    CHECK(at[2] >= 0.55 * limit);
    CHECK(at[1] <= limit);
    CHECK(at[2] <= limit);
  }
}

TEST_CASE("a decode step is not slower than the prompt: TPOT <= TTFT at 128-token prompts on the H100") {
  // A decode's attention takes a 16-row query tile and splits its keys over the SMs
  // (flash-decoding, hw_models/gpu/gpu_fused.cpp), not a 128-row FlashAttention tile per head.
  for (const char* model : {"gpt2", "llama-2-7b"}) {
    CAPTURE(model);
    const results::PointSummary s =
        sweep::run_point(test::generate_point(model, 128, 3, "h100_sxm.yaml")).result.summary;
    MESSAGE(model << ": TTFT " << s.ttft_s << " s, TPOT " << s.tpot_s << " s");
    CHECK(s.tpot_s <= s.ttft_s);
  }
}

TEST_CASE("precision visible: bfloat16 products run at 4 bits on DOTA-B are counted and named, and precision 16 refuses them") {
  // The GPU's idle power taken away so that the energy objective puts products on the PHU.
  sweep::PointSpec p = test::analytical_point("llama-3-8b", 16, "gpu_dota_b.yaml");
  p.objective = "energy";
  p.overrides.emplace_back("units.gpu.static_power", "0 W");
  const results::PointSummary s = sweep::run_point(p).result.summary;
  REQUIRE(s.photonic_selected > 0);
  CHECK(s.reduced_precision_products == s.photonic_selected);  // every one of them is bfloat16
  CHECK(s.reduced_precision == "bfloat16 at 4 bits on phu");
  const std::string table = results::format_seed_table({s});
  CHECK(table.find("note: p0: " + std::to_string(s.photonic_selected) +
                   " matrix products ran at fewer bits than their dtype holds (bfloat16 at 4 bits on phu") !=
        std::string::npos);
  // Requiring the core's 4 bits: the same products run reduced, and the note says the
  // scenario asked for it instead of suggesting `precision:`.
  p.precision = 4;
  const results::PointSummary asked = sweep::run_point(p).result.summary;
  CHECK(asked.reduced_precision_products == asked.photonic_selected);
  const std::string asked_table = results::format_seed_table({asked});
  CHECK(asked_table.find("(bfloat16 at 4 bits on phu, the first), the 4 bits the scenario's precision requires") !=
        std::string::npos);
  CHECK(asked_table.find("`precision:` in the scenario sets") == std::string::npos);
  // Requiring bfloat16's 16 bits: the 4-bit core refuses them, none runs reduced.
  p.precision = 16;
  const results::PointSummary kept = sweep::run_point(p).result.summary;
  CHECK(kept.photonic_selected == 0);
  CHECK(kept.photonic_refused_precision > 0);
  CHECK(kept.reduced_precision_products == 0);
  CHECK(kept.reduced_precision.empty());
  // dtype_precision: each product requires its own dtype's bits (bfloat16: 16), the same here.
  p.precision = 0;
  p.dtype_precision = true;
  const results::PointSummary own = sweep::run_point(p).result.summary;
  CHECK(own.photonic_selected == 0);
  CHECK(own.photonic_refused_precision == kept.photonic_refused_precision);
  CHECK(results::format_seed_table({own}).find("need more bits (their dtype's)") != std::string::npos);
}

TEST_CASE("the A100 SXM4 40 GB of the ML.ENERGY rows: Mistral-7B fits, CodeLlama-34B needs more than one") {
  const results::PointSummary fits = sweep::run_point(test::analytical_point("mistral-7b", 16, "a100_sxm4_40gb.yaml")).result.summary;
  CHECK(fits.status == results::Status::ok);
  CHECK(fits.system == "A100-SXM4-40GB");
  // 67.5 GB of bfloat16 weights in 40 GB: ML.ENERGY ran it on four of them (tensor parallel 4).
  CHECK_THROWS_WITH_AS(sweep::run_point(test::analytical_point("codellama-34b", 16, "a100_sxm4_40gb.yaml")),
                       doctest::Contains("codellama-34b does not fit system 'A100-SXM4-40GB'"), Error);
}
