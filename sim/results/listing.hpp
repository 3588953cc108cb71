#pragma once
// The instruction listing, like the original's code generation: one line per task in start
// order (ties by task id) after a header line naming the columns:
//   start[s] (9 decimals)  start[ps]  hardware  core  op  name  inputs  outputs  covers
// inputs are producer task ids ("-" for none), outputs the output shapes, covers the ir nodes
// a fused kernel runs ("-" for a task of one op). Columns are padded
// to their widest entry; the last is not padded.
#include <ostream>

#include "sim/results/report.hpp"

namespace lightcode::results {

void write_listing(std::ostream& out, const PointResult& point);

}  // namespace lightcode::results
