#include "sim/sweep/tables.hpp"

#include "sim/core/limits.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {
namespace {
const ParamTable& crossover_lengths_table() {
  static const ParamTable table{
      "crossover.lengths",
      "The range of sequence lengths a crossover search covers, both ends included.",
      {
          Param::count("start", limits::kSequenceLength).required().doc("the shortest length"),
          Param::count("stop", limits::kSequenceLength).required().doc("the longest length, >= start"),
      }};
  return table;
}

const ParamTable& crossover_thresholds_table() {
  static const ParamTable table{
      "crossover.thresholds",
      "Per-op photonic thresholds: for each op, the length from which a photonic candidate of "
      "this system beats the rest.",
      {
          Param::text("system").required().doc("a configs/systems/*.yaml file, relative to the scenario file"),
      }};
  return table;
}

}  // namespace

const ParamTable& crossover_table() {
  static const ParamTable table{
      "crossover",
      "A crossover study (`lightcode crossover`, `scenarios/crossover.yaml`): the sequence lengths "
      "at which the best of several systems for a model changes. Paths are relative to the file.",
      {
          Param::meta("name").doc("names the dispatch table; default: the file stem"),
          Param::meta("description").doc("what the study is for"),
          Param::text("model").required().doc("a built-in model (configs/models/) or a TVM graph JSON file"),
          Param::choice("stage", {"prefill", "decode"}).fallback("prefill").doc(
              "prefill: the length is the prompt; decode: the length is the KV cache"),
          rows::traced_length(),
          rows::logits(),
          rows::precision(),
          rows::profile(),
          Param::list("systems").required().doc(
              "a list of at least two configs/systems/*.yaml files, each once; ties go to the "
              "first listed"),
          Param::list("objectives").required().doc(
              "a list of registered objectives (time, energy, edp), each once: one dispatch table each"),
          Param::table("lengths", crossover_lengths_table()).required().doc("the lengths searched"),
          Param::table("thresholds", crossover_thresholds_table()).doc(
              "per-op photonic thresholds on one system; absent: none"),
          Param::text("output").doc(
              "base path of the dispatch table: `<output>.yaml` and `<output>.json`; default: "
              "`results/<name>`"),
      }};
  return table;
}

}  // namespace lightcode::sweep
