#pragma once
// A timeline: when and on which unit instance every task of a TaskGraph ran.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/quantity.hpp"
#include "sim/opt/task_graph.hpp"

namespace lightcode::sched {

// What a schedule's checked time sums are called in errors (sim/core/checked.hpp).
inline constexpr std::string_view kScheduleTime = "the schedule's time";

struct Slot {
  int32_t instance = 0;  // core index within the task's unit type
  Time start;
  Time end;
};

struct Schedule {
  std::vector<Slot> slots;  // parallel to TaskGraph::tasks
  Time makespan;
};

}  // namespace lightcode::sched
