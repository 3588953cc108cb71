// Frontend budgets (issue: foundation): import + validate the GPT-2 TVM graph < 20 ms;
// build llama-2-7b prefill at 4096 tokens < 20 ms. Results in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/tvm/tvm_import.hpp"

using namespace lightcode;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void import_tvm(benchmark::State& state, const char* file) {
  const std::string path = std::string(LIGHTCODE_BENCH_TVM_GRAPHS) + "/" + file;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("external TVM graphs absent");
    return;
  }
  const std::string text = read_file(path);  // parse cost only; the disk is not the point
  for (auto _ : state) {
    ir::Graph g = frontend::import_tvm_json(text, path);
    g.validate();
    benchmark::DoNotOptimize(g);
  }
  state.SetLabel(file);
}

void build_builtin(benchmark::State& state, const char* name, frontend::Stage stage) {
  const frontend::ModelConfig config = frontend::builtin_model(name);
  const auto length = state.range(0);
  size_t nodes = 0;
  for (auto _ : state) {
    ir::Graph g = frontend::build_model(config, stage, length, frontend::Logits::last);
    nodes = g.size();
    benchmark::DoNotOptimize(g);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}

}  // namespace

BENCHMARK_CAPTURE(import_tvm, gpt2_prefill, "gpt2_prefill_seq5_graph.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(import_tvm, gpt2_decoder, "gpt2_decoder_seq6_graph.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(import_tvm, llama2_7b_prefill, "llama2_7b_prefill_seq6_graph.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_builtin, gpt2_prefill, "gpt2", frontend::Stage::prefill)->Arg(1400)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_builtin, llama_2_7b_prefill, "llama-2-7b", frontend::Stage::prefill)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build_builtin, llama_2_7b_decode, "llama-2-7b", frontend::Stage::decode)->Arg(4096)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
