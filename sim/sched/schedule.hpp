#pragma once
// A timeline: when and on which unit instance every task of a TaskGraph ran.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/opt/task_graph.hpp"

namespace lightcode::sched {

// What a schedule's checked time sums are called in errors (sim/core/checked.hpp).
inline constexpr std::string_view kScheduleTime = "the schedule's time";

struct Slot {
  int32_t instance = 0;  // core index within the task's unit type
  int64_t start_ps = 0;
  int64_t end_ps = 0;
};

struct Schedule {
  std::vector<Slot> slots;  // parallel to TaskGraph::tasks
  int64_t makespan_ps = 0;
};

}  // namespace lightcode::sched
