#include "sim/results/listing.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sim/results/console_table.hpp"

namespace lightcode::results {
namespace {

constexpr size_t kColumns = 9;
using Line = std::array<std::string, kColumns>;

Line line_of(const TaskRecord& task) {
  return {format_seconds(task.start, 9),
          std::to_string(task.start.count_ps()),
          task.hardware,
          std::to_string(task.unit),
          task.op,
          task.name,
          task.inputs.empty() ? "-" : task.inputs,
          task.outputs.empty() ? "-" : task.outputs,
          task.covers.empty() ? "-" : task.covers};
}

}  // namespace

void write_listing(std::ostream& out, const PointResult& point) {
  std::vector<const TaskRecord*> order;
  order.reserve(point.tasks.size());
  for (const TaskRecord& task : point.tasks) order.push_back(&task);
  std::sort(order.begin(), order.end(), [](const TaskRecord* a, const TaskRecord* b) {
    return a->start != b->start ? a->start < b->start : a->id < b->id;
  });

  std::vector<Line> lines;
  lines.reserve(order.size() + 1);
  lines.push_back({"start[s]", "start[ps]", "hardware", "core", "op", "name", "inputs", "outputs", "covers"});
  for (const TaskRecord* task : order) lines.push_back(line_of(*task));

  std::array<size_t, kColumns> width{};
  for (const Line& line : lines) {
    for (size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], line[c].size());
  }
  // Times and the core index read best right-aligned; text columns left-aligned.
  constexpr std::array<bool, kColumns> right = {true, true, false, true, false, false, false, false};
  for (const Line& line : lines) {
    std::string text;
    for (size_t c = 0; c < kColumns; ++c) {
      if (c > 0) text += "  ";
      const size_t pad = width[c] - line[c].size();
      if (right[c]) text.append(pad, ' ');
      text += line[c];
      if (!right[c] && c + 1 < kColumns) text.append(pad, ' ');
    }
    out << text << '\n';
  }
}

}  // namespace lightcode::results
