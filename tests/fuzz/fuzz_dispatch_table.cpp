// Fuzz target: a dispatch table (the YAML or JSON `lightcode crossover` writes) through
// serve::parse_dispatch_table; an accepted table routes a few lengths in and out of range.
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/serve/dispatch_table.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

namespace {

void check_route(const serve::LoadedDispatchTable& t, const std::string& objective,
                 int64_t length) {
  const std::string at = objective + " at " + std::to_string(length);
  const serve::DispatchRule& r = t.route(objective, length);
  fuzz::require(
      r.from <= length && length <= r.to,
      at + ": routed to a rule for " + std::to_string(r.from) + ".." + std::to_string(r.to));
  bool listed = false;
  for (const std::string& s : t.systems) listed = listed || s == r.system;
  fuzz::require(listed, at + ": routed to an unlisted system '" + r.system + "'");
  fuzz::require_finite(r.metric_from, at + " metric_from");
  fuzz::require_finite(r.metric_to, at + " metric_to");
}

}  // namespace


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run(data, size, [](std::string_view text) {
    const serve::LoadedDispatchTable t = serve::parse_dispatch_table(text, "<fuzz>/d.yaml");
    fuzz::require(t.start >= 1 && t.start <= t.stop, "lengths out of order");
    fuzz::require(!t.objectives.empty(), "no objectives");
    for (const serve::DispatchObjective& o : t.objectives) {
      fuzz::require(!o.rules.empty(), o.objective + ": no rules");
      fuzz::require(o.curve_metrics.empty() || o.curve_metrics.size() == t.systems.size(),
                    o.objective + ": curves");
      for (const auto& metrics : o.curve_metrics) {
        fuzz::require(metrics.size() == o.curve_lengths.size(), o.objective + ": curve lengths");
      }
      const int64_t span = t.stop - t.start;
      for (const int64_t length :
           {t.start, t.stop, t.start + span / 2, t.start + span / 3, t.stop - span / 7}) {
        check_route(t, o.objective, length);
      }
      for (const auto& rule : o.rules) {
        check_route(t, o.objective, rule.from);
        check_route(t, o.objective, rule.to);
      }
      // Outside the range and unknown objectives: lightcode::Error, caught by the harness.
      for (const int64_t length : {t.start - 1, t.stop + 1}) {
        try {
          t.route(o.objective, length);
          fuzz::finding("routed a length outside the table: " + std::to_string(length));
        } catch (const Error&) {
        }
      }
    }
    try {
      t.route("no-such-objective", t.start);
      fuzz::finding("routed an unknown objective");
    } catch (const Error&) {
    }
  });
}
