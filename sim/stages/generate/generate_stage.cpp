#include "sim/stages/generate/generate_stage.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "frontend/load_model.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/joint/placement_reuse.hpp"
#include "sim/results/trace.hpp"
#include "sim/stages/graph/graph_stage.hpp"
#include "sim/stages/graph_sequence.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {

PointSpec generation_step(const PointSpec& point, int64_t step) {
  PointSpec s = point;
  if (step == 0) {
    s.stage = Stage::prefill;
    return s;
  }
  s.stage = Stage::decode;
  // The cache holds the prompt and the tokens fed by the steps before: token t is fed at step t.
  s.sequence_length = point.sequence_length + step - 1;
  return s;
}

PointRun run_generation(const PointSpec& point, const PointOptions& options) {
  if (frontend::is_graph_file(point.model)) {
    throw Error("stage generate needs a built-in model (a TVM or ONNX graph file is one traced stage): '" +
                point.model + "'");
  }
  if (point.new_tokens < 1) throw Error("stage generate needs `new_tokens` of at least 1");
  Time ttft, decode;
  joint::PlacementReuse reuse;  // placement_reuse: by_class
  joint::PlacementReuse* reusing = point.placement_reuse == serve::PlacementReuseMode::by_class ? &reuse : nullptr;
  GraphSequence steps = run_graph_sequence(
      point, options, point.new_tokens, [&point](int64_t t) { return generation_step(point, t); },
      [&](int64_t t, Time makespan) {
        if (t == 0) {
          ttft = makespan;
        } else {
          decode = decode.plus(makespan, "the generation's decode time");
        }
      },
      reusing);
  PointRun& run = steps.run;
  const bool event = steps.event;
  results::PointSummary& out = run.result.summary;
  out.stage = "generate";
  out.parts = generate_stage().summary_parts;
  out.fidelity = event ? "event" : "analytical";
  out.analytical_makespan = steps.analytical;
  out.new_tokens = point.new_tokens;
  out.ttft_s = ttft.seconds();
  out.tpot_s =
      point.new_tokens > 1 ? decode.seconds() / static_cast<double>(point.new_tokens - 1) : 0.0;
  out.energy_per_token_pj = out.energy_pj / static_cast<double>(point.new_tokens);
  if (!options.trace_path.empty()) {
    results::write_trace(options.trace_path, run.result,
                         event ? trace_transfers(steps.measured) : std::vector<results::TraceTransfer>{});
  }
  return std::move(run);
}

namespace {

const ParamTable& generate_table() {
  static const ParamTable table{
      "stage.generate",
      "Stage generate: a prompt's prefill, then one decode step per further token.",
      {rows::logits(), rows::precision(), rows::dtype_precision(), rows::sequence_length(), rows::new_tokens(), rows::system(),
       rows::fidelity(), rows::pareto(), rows::placement_evaluations(), rows::placement_reuse(),
       rows::tensor_parallel()}};
  return table;
}

void read_generate(const Params& p, PointSpec& s) {
  if (frontend::is_graph_file(s.model)) {
    p.at("model").fail("stage generate needs a built-in model (a TVM or ONNX graph file is one traced stage)");
  }
  read_graph_keys(p, s);
  if (hw::profile_named(s.profile).places_with_schedule()) {
    s.placement_reuse = serve::parse_placement_reuse(p.choice("placement_reuse"));
  }
  s.new_tokens = p.count("new_tokens");
  if (s.sequence_length + s.new_tokens > limits::kSequenceLength.value) {
    p.at("new_tokens").fail("sequence_length + new_tokens = " + std::to_string(s.sequence_length + s.new_tokens) +
                            " is above the limit of " + std::to_string(limits::kSequenceLength.value) + " (" +
                            std::string(limits::kSequenceLength.name) + ")");
  }
}

}  // namespace

StageInfo generate_stage() {
  return StageInfo{Stage::generate,
                   "generate",
                   "a prompt's prefill, then new_tokens - 1 decode steps (TTFT, TPOT, energy per token)",
                   &generate_table(),
                   results::kGraphFigures | results::kGenerationFigures | results::kPerTokenEnergy,
                   read_generate,
                   check_graph_inputs,
                   run_generation};
}

}  // namespace lightcode::sweep
