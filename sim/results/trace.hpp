#pragma once
// Perfetto / Chrome trace (JSON trace-event format, what ui.perfetto.dev and chrome://tracing
// open): one track per unit instance with one slice per task, and per link channel (or route)
// as many tracks as it has transfers in flight at once ("sram->cpu", "sram->cpu #2", ...):
// a transfer goes on the first of them that is free when it starts, so slices on one track
// never overlap (a route's transfers, and multi-hop ones, can). Timestamps are microseconds
// with picosecond digits. A generate point's slices carry their step (0 = prefill).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/results/report.hpp"

namespace lightcode::results {

struct TraceTransfer {
  std::string track;  // link channel(s) it crossed, e.g. "sram->cpu"
  std::string name;   // "12->15"
  Time start;
  Time end;
  int64_t bytes = 0;
};

std::string trace_json(const PointResult& point, const std::vector<TraceTransfer>& transfers);
// Writes trace_json() to `path` (atomically); throws lightcode::Error naming the path.
void write_trace(const std::string& path, const PointResult& point, const std::vector<TraceTransfer>& transfers);

}  // namespace lightcode::results
