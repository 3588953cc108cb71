#pragma once
// Plain-text tables for the terminal.
// format_seed_table: one row per point with the columns, headings and number formats of the
// original's "Raw sim results" table (Makespan[s] with 5 decimals, total_energy[pj] with 1),
// and, after Hardware and moc_sequence_length, the objective and one column per swept
// parameter other than those (phu.cores, ...; "-" where a point lacks it); space-aligned,
// numbers right-aligned; a failed point shows "failed: <error>" in place of its figures; when
// a point generates (stage generate), TTFT[s], TPOT[s] (time per output token, 6 decimals) and
// energy_per_token[pj] follow ("-" for other points); below the table a note per point whose
// products a photonic unit refused for their precision.
// format_point_details: one point's headline figures (with a generation's TTFT, time per
// output token and energy per token), parameters, subgraph reuse,
// energy by hardware and category (pJ), and per unit or link channel: busy time (s),
// utilisation (%), tasks, energy and static energy (pJ), link bytes and queueing (s), PHU
// conversion-bound time (s).
// Every line ends with '\n'.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/results/report.hpp"

namespace lightcode::results {

std::string format_seed_table(const std::vector<PointSummary>& points);
std::string format_point_details(const PointResult& point);
// Stage serve's figures, one row per serve point (its dispatch policy and swept parameters,
// requests, those rejected at arrival (their KV peak never fits: PointSummary::rejected), TTFT
// and TPOT p50 / p99, latency p99, throughput, goodput, energy per output
// token, preemptions, the run's length); "" when no point serves.
std::string format_serve_table(const std::vector<PointSummary>& points);

// A time in seconds with `decimals` (0..12) digits, exactly: 1234567 ps, 9 -> "0.000001235".
std::string format_seconds(Time t, int decimals);

}  // namespace lightcode::results
