#pragma once
// The original's choice of an instance (both `lightcode` and `original` policies): the one of
// the task's unit type that became free latest but not after the task is ready, else the
// earliest-free one. `free_at[k]` is when instance k becomes free.
#include <algorithm>
#include <vector>

#include "sim/core/quantity.hpp"

namespace lightcode::sched {

inline int latest_free_not_after(const std::vector<Time>& free_at, Time ready) {
  int best = -1;
  for (size_t k = 0; k < free_at.size(); ++k) {
    if (free_at[k] <= ready && (best < 0 || free_at[k] > free_at[static_cast<size_t>(best)]))
      best = static_cast<int>(k);
  }
  if (best < 0)
    best = static_cast<int>(std::min_element(free_at.begin(), free_at.end()) - free_at.begin());
  return best;
}

}  // namespace lightcode::sched
