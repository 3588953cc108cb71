#pragma once
// Registered stages. A stage is {name, parameter table, read, check, run, summary parts}, each
// in a folder of its own under sim/stages/ (graph/: prefill and decode, generate/, serve/), all
// added in register_stages.cpp, above the shared point pipeline (sim/point/pipeline.hpp):
//   - read:  reads the keys of its table from a point's config tree (the scenario's tree with
//            the point's axis values put in) through Params, into the PointSpec. Whether a key
//            counts as read is decided by the ConfigUsage those reads leave, never by a list:
//            a key no point's stage read is an error naming file, line and key.
//   - check: every input file its points will read (systems, models, traces, dispatch tables),
//            each distinct one once, before the first point of a run or sweep.
//   - run:   the point, end to end (event fidelity where the stage has it: in this process, so
//            callers give event points a worker process each; SystemC elaborates once per
//            process).
//   - parts: which groups of summary figures its points report (results::SummaryPart); the
//            others are NaN in results files and absent from console tables.
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/point/point_spec.hpp"

namespace lightcode::sweep {

// Input checks, each distinct one once; every problem is collected (not only the first).
class InputChecks {
 public:
  // Runs `check` unless a check of the same `key` ran before; records its lightcode::Error.
  void once(const std::string& key, const std::function<void()>& check);
  // lightcode::Error listing the problems (one per line), if any.
  void throw_problems() const;

 private:
  std::set<std::string> seen_, problems_seen_;
  std::vector<std::string> problems_;
};

struct StageInfo {
  Stage id;
  std::string name;
  std::string description;
  const ParamTable* params = nullptr;  // the scenario keys it reads beyond the common ones
  uint32_t summary_parts = 0;          // results::SummaryPart bits its points report
  void (*read)(const Params& tree, PointSpec& point) = nullptr;
  void (*check)(const PointSpec& point, InputChecks& checks) = nullptr;
  PointRun (*run)(const PointSpec& point, const PointOptions& options) = nullptr;
};

// The stages, registered on first use by register_stages().
const std::vector<StageInfo>& stages();
const StageInfo& stage_info(Stage stage);
void register_stages(std::vector<StageInfo>& registry);

// The keys every stage's points read before their stage's own: model, stage, objective,
// profile, scheduler, with the scenario's meta keys (name, description, output, sweep).
const ParamTable& common_table();

// Runs `point` by its stage. Throws lightcode::Error for bad input.
PointRun run_point(const PointSpec& point, const PointOptions& options = {});

// Checks every input the points will read (their stages' checks), before any point runs;
// lightcode::Error listing every problem, each once.
void validate_point_inputs(const std::vector<PointSpec>& points);

}  // namespace lightcode::sweep
