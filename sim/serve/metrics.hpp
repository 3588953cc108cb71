#pragma once
// Aggregate figures of a serving run (simulator.hpp). Times in seconds, energy in pJ.
// Percentiles are nearest-rank: the p-th of n sorted values is the ceil(p/100 x n)-th one
// (1-based), always a measured value, never interpolated.
// Throughput and goodput are per second of the run (time 0 to the last finish). Energy is the
// sum of the iteration energies plus each replica's static power x the run time. Rejected
// requests (simulator.hpp) are left out of every figure here: they have no latency and no
// token; ServeResult::rejected counts them. Percentiles of a run that served nothing are NaN.
#include <cstdint>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/serve/simulator.hpp"

namespace lightcode::serve {

struct Percentiles {
  double p50 = 0.0, p90 = 0.0, p99 = 0.0;
};

// A request meets them when its TTFT <= ttft and its time per output token <= tpot.
struct SloTargets {
  Time ttft = Time::max();
  Time tpot = Time::max();
};

struct ServeSummary {
  Percentiles ttft_s, tpot_s, latency_s;
  double throughput_tokens_per_s = 0.0;  // output tokens
  double goodput_requests_per_s = 0.0;   // requests meeting the SLO targets
  Energy energy;                         // dynamic + static
  double energy_per_output_token_pj = 0.0;
  std::vector<double> utilisation;     // per replica: busy time / run time
  std::vector<Energy> static_energy;   // per replica: its static power x the run time
  int64_t output_tokens = 0;
  int64_t preemptions = 0;
  double average_power_w = 0.0;  // energy / run time
  // The steady state (ServeResult::steady_end): NaN when there is none. Its energy is the
  // iterations' that ended in it plus every replica's static power over it.
  double steady_state_s = 0.0;
  int64_t steady_output_tokens = 0;
  double steady_throughput_tokens_per_s = 0.0;
  double steady_energy_per_output_token_pj = 0.0;
  double steady_power_w = 0.0;
  int64_t steady_iterations = 0, steady_sequence_iterations = 0;  // ServeResult's
};

// Nearest-rank percentile of `values` (not empty), p in (0, 100].
double nearest_rank(std::vector<double> values, double p);
// The time average of the queue length over [0, end]: the series is a step function holding
// each sample's value until the next sample (before the first one, nobody waits).
double time_average_queue(const std::vector<QueueSample>& series, Time end);

ServeSummary summarise(const ServeResult& result, const ServeSpec& spec, const SloTargets& slo);

}  // namespace lightcode::serve
