#include "sim/stages/stage.hpp"

#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/stages/stage_rows.hpp"

namespace lightcode::sweep {

void InputChecks::once(const std::string& key, const std::function<void()>& check) {
  if (!seen_.insert(key).second) return;
  try {
    check();
  } catch (const Error& e) {
    if (problems_seen_.insert(e.what()).second) problems_.push_back(e.what());
  }
}

void InputChecks::throw_problems() const {
  if (problems_.empty()) return;
  if (problems_.size() == 1) throw Error(problems_.front());
  std::string message = std::to_string(problems_.size()) + " problems in the scenario's inputs:";
  for (const std::string& m : problems_) message += "\n  " + m;
  throw Error(message);
}

const std::vector<StageInfo>& stages() {
  static const std::vector<StageInfo> registry = [] {
    std::vector<StageInfo> r;
    register_stages(r);
    return r;
  }();
  return registry;
}

const StageInfo& stage_info(Stage stage) {
  for (const StageInfo& s : stages()) {
    if (s.id == stage) return s;
  }
  throw std::logic_error("stage '" + std::string(stage_name(stage)) + "' is not registered");
}

const ParamTable& common_table() {
  static const ParamTable table{
      "scenario.common",
      "Keys every scenario has, whatever its stage.",
      {
          Param::meta("name").doc("names the results; default: the file stem (1 to 1024 bytes)"),
          Param::meta("description").doc("what the scenario is for"),
          Param::text("output").doc("the HDF5 results file; default: `results/<name>.h5`"),
          rows::model(),
          rows::stage(),
          rows::objective(),
          rows::profile(),
          rows::scheduler(),
          Param::named("sweep", nullptr)
              .doc("axes, the first outermost: a scenario key (a dotted path into a mapping: "
                   "`batching.max_batch`, `requests.count`; or a whole value: `replicas`), or "
                   "`<unit>.<key>[.<key>...]` of the point's system, -> a list of values or a range "
                   "([scenario.range](#scenario.range)); `zip:` holds axes that advance together"),
      }};
  return table;
}

PointRun run_point(const PointSpec& point, const PointOptions& options) {
  return stage_info(point.stage).run(point, options);
}

void validate_point_inputs(const std::vector<PointSpec>& points) {
  InputChecks checks;
  for (const PointSpec& p : points) stage_info(p.stage).check(p, checks);
  checks.throw_problems();
}

}  // namespace lightcode::sweep
