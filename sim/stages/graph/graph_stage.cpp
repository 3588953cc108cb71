#include "sim/stages/graph/graph_stage.hpp"

#include "frontend/load_model.hpp"
#include "frontend/models/model_config.hpp"
#include "frontend/tvm/tvm_import.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/results/trace.hpp"
#include "sim/stages/graph_sequence.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {
namespace {

const ParamTable& graph_table() {
  static const ParamTable table{
      "stage.graph",
      "Stages prefill and decode: one graph placed on one system.",
      {rows::traced_length(), rows::logits(), rows::precision(), rows::dtype_precision(), rows::sequence_length(), rows::system(),
       rows::fidelity(), rows::pareto(), rows::placement_evaluations(), rows::tensor_parallel(),
       rows::pipeline_parallel()}};
  return table;
}

void read_graph_stage(const Params& p, PointSpec& s) {
  if (frontend::is_graph_file(s.model) && p.has("traced_length")) s.traced_length = p.count("traced_length");
  read_graph_keys(p, s);
  if (!frontend::is_graph_file(s.model)) s.pipeline_parallel = p.count("pipeline_parallel");
}

// Pipeline stages, one after another (graph_sequence.hpp): one prompt's or token's pass, no
// micro-batches, so a stage waits for the one before and the latency is their sum.
// Every stage's task rows are kept (a pipeline has few stages).
PointRun run_pipeline_stages(const PointSpec& point, const PointOptions& options) {
  PointOptions every = options;
  every.every_task = true;
  GraphSequence stages = run_graph_sequence(
      point, every, point.pipeline_parallel,
      [&point](int64_t s) {
        PointSpec stage = point;
        stage.pipeline_stage = s;
        return stage;
      },
      [](int64_t, Time) {});
  PointRun& run = stages.run;
  results::PointSummary& out = run.result.summary;
  out.fidelity = stages.event ? "event" : "analytical";
  out.analytical_makespan = stages.analytical;
  if (!options.trace_path.empty()) {
    results::write_trace(options.trace_path, run.result,
                         stages.event ? trace_transfers(stages.measured) : std::vector<results::TraceTransfer>{});
  }
  return std::move(run);
}

PointRun run_graph(const PointSpec& point, const PointOptions& options) {
  if (point.pipeline_parallel > 1) return run_pipeline_stages(point, options);
  PlannedPoint planned = plan_point(point);
  PointRun& run = planned.run;
  const hw::System& system = *planned.system;
  if (point.fidelity == Fidelity::event) {
    run.result.summary.fidelity = "event";
    const engine::EventResult event = engine::simulate(run.tasks, system, event_options(options), *planned.policy);
    run.schedule = event.schedule;
    fill_report(run.tasks, run.schedule, system, run.result, &event);
    if (!options.trace_path.empty()) results::write_trace(options.trace_path, run.result, trace_transfers(event));
  } else {
    fill_report(run.tasks, run.schedule, system, run.result);
    if (!options.trace_path.empty()) results::write_trace(options.trace_path, run.result, {});
  }
  return std::move(run);
}

StageInfo graph_stage(Stage id, const char* description) {
  return StageInfo{id, std::string(stage_name(id)), description, &graph_table(), results::kGraphFigures,
                   read_graph_stage, check_graph_inputs, run_graph};
}

}  // namespace

void read_graph_keys(const Params& p, PointSpec& s) {
  if (!frontend::is_graph_file(s.model)) {
    s.logits = p.text_if("logits").value_or("");
    s.tensor_parallel = p.count("tensor_parallel");
  }
  s.sequence_length = p.count("sequence_length");
  if (!p.has("system")) p.node().fail("missing key 'system' (a configs/systems/*.yaml file)");
  p.mark("system");
  s.system = rows::system_value(p.at("system"));
  if (rows::system_models_precision(s.system, s.profile)) {
    s.precision = p.count_if("precision").value_or(0);
    s.dtype_precision = p.boolean("dtype_precision");
    if (s.dtype_precision && s.precision != 0)
      p.at("dtype_precision").fail("dtype_precision and precision both set: choose one requirement");
  }
  s.fidelity = parse_fidelity(p.choice("fidelity"));
  if (hw::profile_named(s.profile).places_with_schedule()) {
    s.pareto = p.boolean("pareto");
    s.placement_evaluations = p.count("placement_evaluations");
  }
}

void check_graph_inputs(const PointSpec& p, InputChecks& checks) {
  checks.once("model\n" + p.model, [&] {
    if (frontend::is_graph_file(p.model)) {
      frontend::check_graph_file(p.model);  // as traced: re-sizing is the point's business
    } else {
      frontend::builtin_model(p.model);
    }
  });
  std::string key = "system\n" + p.profile + "\n" + p.system;
  for (const auto& [path, value] : p.overrides) key += "\n" + path + "=" + value;
  checks.once(key, [&] { hw::System::from_config(system_config(p), hw::profile_named(p.profile)); });
}

StageInfo prefill_stage() { return graph_stage(Stage::prefill, "a prompt of sequence_length tokens, one graph"); }
StageInfo decode_stage() {
  return graph_stage(Stage::decode, "one token against a KV cache of sequence_length tokens, one graph");
}

}  // namespace lightcode::sweep
