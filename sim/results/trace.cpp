#include "sim/results/trace.hpp"

#include <cstdio>
#include <algorithm>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"

namespace lightcode::results {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// Microseconds with all 6 picosecond digits.
std::string micros(Time t) {
  const int64_t ps = t.count_ps();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%06lld", static_cast<long long>(ps / 1000000),
                static_cast<long long>(ps % 1000000));
  return buf;
}

}  // namespace

std::string trace_json(const PointResult& point, const std::vector<TraceTransfer>& transfers) {
  std::string j = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  bool first = true;
  auto add = [&](const std::string& e) {
    j += (first ? "" : ",\n") + e;
    first = false;
  };
  add("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"" +
      escape(point.summary.system + " units") + "\"}}");
  add("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 2, \"args\": {\"name\": \"links\"}}");
  std::map<std::string, int> unit_tids;  // "cpu0" -> tid, in order of first appearance
  for (const TaskRecord& t : point.tasks) {
    const std::string track = t.hardware + std::to_string(t.unit);
    if (unit_tids.emplace(track, static_cast<int>(unit_tids.size()) + 1).second) {
      add("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": " + std::to_string(unit_tids[track]) +
          ", \"args\": {\"name\": \"" + escape(track) + "\"}}");
    }
  }
  const bool generation = point.summary.new_tokens > 0;  // rows of several steps
  for (const TaskRecord& t : point.tasks) {
    const int tid = unit_tids[t.hardware + std::to_string(t.unit)];
    add("{\"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"name\": \"" + escape(t.name) +
        "\", \"cat\": \"" + escape(t.op) + "\", \"ts\": " + micros(t.start) + ", \"dur\": " +
        micros(t.end - t.start) + ", \"args\": {\"task\": " + std::to_string(t.id) + ", \"energy_pj\": " +
        std::to_string(t.energy_pj) + ", \"outputs\": \"" + escape(t.outputs) + "\"" +
        (t.covers.empty() ? "" : ", \"covers\": \"" + escape(t.covers) + "\"") +
        (generation ? ", \"step\": " + std::to_string(t.step) : "") + "}}");
  }
  // Transfers in start order (ties: end, then given order), each on the first lane of its
  // channel that is free by its start.
  std::vector<size_t> order(transfers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const TraceTransfer &x = transfers[a], &y = transfers[b];
    return x.start != y.start ? x.start < y.start : x.end < y.end;
  });
  std::map<std::string, std::vector<Time>> lane_free_at;  // per channel: when each lane frees
  std::map<std::string, int> link_tids;                      // "sram->cpu #2" -> tid
  for (const size_t i : order) {
    const TraceTransfer& x = transfers[i];
    std::vector<Time>& lanes = lane_free_at[x.track];
    size_t lane = 0;
    while (lane < lanes.size() && lanes[lane] > x.start) ++lane;
    if (lane == lanes.size()) lanes.push_back(Time::zero());
    lanes[lane] = std::max(x.end, x.start);
    const std::string track = lane == 0 ? x.track : x.track + " #" + std::to_string(lane + 1);
    if (link_tids.emplace(track, static_cast<int>(link_tids.size()) + 1).second) {
      add("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 2, \"tid\": " + std::to_string(link_tids[track]) +
          ", \"args\": {\"name\": \"" + escape(track) + "\"}}");
    }
    add("{\"ph\": \"X\", \"pid\": 2, \"tid\": " + std::to_string(link_tids[track]) + ", \"name\": \"" +
        escape(x.name) + "\", \"cat\": \"transfer\", \"ts\": " + micros(x.start) + ", \"dur\": " +
        micros(x.end - x.start) + ", \"args\": {\"bytes\": " + std::to_string(x.bytes) + "}}");
  }
  return j + "\n]}\n";
}

void write_trace(const std::string& path, const PointResult& point, const std::vector<TraceTransfer>& transfers) {
  write_output_file(path, trace_json(point, transfers));
}

}  // namespace lightcode::results
