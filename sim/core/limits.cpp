#include "sim/core/limits.hpp"

#include <cstdio>

namespace lightcode {

const std::vector<Limit>& all_limits() {
  using namespace limits;
  static const std::vector<Limit> table{
      kConfigFileBytes, kGraphFileBytes, kCsvFileBytes,   kConfigDepth, kConfigValues,
      kNameBytes,       kGraphNodes,     kNodeEdges,      kTensorRank,  kCsvShapeDepth,
      kSequenceLength,  kNewTokens,      kUnitCount,      kPrecisionBits, kParallelDegree, kPlacementEvaluations,
      kTasks,           kRequests,       kReplicas,       kBatchSequences, kAxisValues,
      kPoints,          kOutputNameBytes};
  return table;
}

namespace {

std::string grouped(int64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string limits_markdown() {
  std::string s = "| limit | value | unit | bounds |\n|---|---:|---|---|\n";
  for (const Limit& l : all_limits()) {
    s += "| `" + std::string(l.name) + "` | " + grouped(l.value) + " | " + std::string(l.unit) + " | " +
         std::string(l.bounds) + " |\n";
  }
  return s;
}

std::string limits_text() {
  std::string s;
  char line[256];
  for (const Limit& l : all_limits()) {
    std::snprintf(line, sizeof line, "%-18s %14s %-10s %s\n", std::string(l.name).c_str(), grouped(l.value).c_str(),
                  std::string(l.unit).c_str(), std::string(l.bounds).c_str());
    s += line;
  }
  return s;
}

}  // namespace lightcode
