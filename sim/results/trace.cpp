#include "sim/results/trace.hpp"

#include <cstdio>
#include <fstream>
#include <map>

#include "sim/core/error.hpp"

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
std::string micros(int64_t ps) {
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
  for (const TaskRecord& t : point.tasks) {
    const int tid = unit_tids[t.hardware + std::to_string(t.unit)];
    add("{\"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"name\": \"" + escape(t.name) +
        "\", \"cat\": \"" + escape(t.op) + "\", \"ts\": " + micros(t.start_ps) + ", \"dur\": " +
        micros(t.end_ps - t.start_ps) + ", \"args\": {\"task\": " + std::to_string(t.id) + ", \"energy_pj\": " +
        std::to_string(t.energy_pj) + ", \"outputs\": \"" + escape(t.outputs) + "\"}}");
  }
  std::map<std::string, int> link_tids;
  for (const TraceTransfer& x : transfers) {
    if (link_tids.emplace(x.track, static_cast<int>(link_tids.size()) + 1).second) {
      add("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 2, \"tid\": " + std::to_string(link_tids[x.track]) +
          ", \"args\": {\"name\": \"" + escape(x.track) + "\"}}");
    }
    add("{\"ph\": \"X\", \"pid\": 2, \"tid\": " + std::to_string(link_tids[x.track]) + ", \"name\": \"" +
        escape(x.name) + "\", \"cat\": \"transfer\", \"ts\": " + micros(x.start_ps) + ", \"dur\": " +
        micros(x.end_ps - x.start_ps) + ", \"args\": {\"bytes\": " + std::to_string(x.bytes) + "}}");
  }
  return j + "\n]}\n";
}

void write_trace(const std::string& path, const PointResult& point, const std::vector<TraceTransfer>& transfers) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(SourcePlace{path, 0, 0, ""}, "cannot write the trace");
    out << trace_json(point, transfers);
    if (!out) throw Error(SourcePlace{path, 0, 0, ""}, "cannot write the trace");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw Error(SourcePlace{path, 0, 0, ""}, "cannot write the trace");
}

}  // namespace lightcode::results
