#include "sim/serve/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/core/error.hpp"

namespace lightcode::serve {
namespace {

Percentiles percentiles(const std::vector<double>& values) {
  if (values.empty()) {  // nothing served: no figure applies
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan};
  }
  return {nearest_rank(values, 50.0), nearest_rank(values, 90.0), nearest_rank(values, 99.0)};
}

}  // namespace

double nearest_rank(std::vector<double> values, double p) {
  if (values.empty() || !(p > 0.0 && p <= 100.0))
    throw std::logic_error("nearest_rank: needs values and a percentile in (0, 100]");
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  return values[std::max<size_t>(rank, 1) - 1];
}

double time_average_queue(const std::vector<QueueSample>& series, Time end) {
  if (end <= Time::zero()) return 0.0;
  double area_ps = 0.0;
  for (size_t i = 0; i < series.size(); ++i) {
    const Time until = i + 1 < series.size() ? std::min(series[i + 1].time, end) : end;
    if (until > series[i].time)
      area_ps += static_cast<double>(series[i].queue) *
                 static_cast<double>((until - series[i].time).count_ps());
  }
  return area_ps / static_cast<double>(end.count_ps());
}

ServeSummary summarise(const ServeResult& result, const ServeSpec& spec, const SloTargets& slo) {
  ServeSummary s;
  std::vector<double> ttft, tpot, latency;
  int64_t tokens = 0, good = 0;
  for (const RequestRecord& r : result.requests) {
    if (r.rejected()) continue;  // no token, no latency: counted in ServeResult::rejected
    ttft.push_back(r.ttft().seconds());
    tpot.push_back(r.tpot_s());
    latency.push_back(r.latency().seconds());
    tokens += r.output_tokens;
    s.preemptions += r.preemptions;
    if (r.ttft() <= slo.ttft && r.tpot_s() <= slo.tpot.seconds()) ++good;
  }
  s.ttft_s = percentiles(ttft);
  s.tpot_s = percentiles(tpot);
  s.latency_s = percentiles(latency);
  const double run_s = result.run_time.seconds();
  double static_w = 0.0;  // every replica's
  for (size_t i = 0; i < result.replicas.size(); ++i) {
    const ReplicaRecord& r = result.replicas[i];
    static_w += spec.replicas.at(i).static_power_w;
    s.static_energy.push_back(Energy::from_joules(spec.replicas.at(i).static_power_w * run_s));
    s.energy += r.dynamic_energy + s.static_energy.back();
    s.utilisation.push_back(run_s > 0.0 ? r.busy.seconds() / run_s : 0.0);
  }
  s.output_tokens = tokens;
  if (run_s > 0.0) {
    s.throughput_tokens_per_s = static_cast<double>(tokens) / run_s;
    s.goodput_requests_per_s = static_cast<double>(good) / run_s;
  }
  if (tokens > 0)
    s.energy_per_output_token_pj = s.energy.picojoules() / static_cast<double>(tokens);
  if (run_s > 0.0) s.average_power_w = s.energy.joules() / run_s;
  const double steady_s = result.steady_end.seconds();
  s.steady_state_s = steady_s;
  s.steady_output_tokens = result.steady_output_tokens;
  s.steady_iterations = result.steady_iterations;
  s.steady_sequence_iterations = result.steady_sequence_iterations;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.steady_throughput_tokens_per_s = s.steady_energy_per_output_token_pj = s.steady_power_w = nan;
  if (steady_s > 0.0 && result.steady_output_tokens > 0) {
    const Energy steady = result.steady_dynamic_energy + Energy::from_joules(static_w * steady_s);
    s.steady_throughput_tokens_per_s = static_cast<double>(result.steady_output_tokens) / steady_s;
    s.steady_energy_per_output_token_pj = steady.picojoules() / static_cast<double>(result.steady_output_tokens);
    s.steady_power_w = steady.joules() / steady_s;
  }
  return s;
}

}  // namespace lightcode::serve
