#pragma once
// The dataset file, written as the points come (schema.hpp): a temporary beside the output,
// every streamed table a chunked, deflated HDF5 table (results::h5::AppendTable) created at the
// start; each point's records appended in scenario order, their ids made global (graph_id,
// record_id: rows before them), hardware rows already written dropped; only whole chunks are
// written before the end, so the file's bytes depend on the rows alone, never on when they came
// (-j, threads or processes). finish() writes /families and /inputs, the root attributes (the
// provenance), syncs the file and renames it over the output; a writer destroyed unfinished
// leaves nothing. Memory: the rows of a chunk per table and the point at hand.
// Not thread-safe (HDF5 is not): one thread writes.
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/dataset/records.hpp"
#include "sim/dataset/split.hpp"
#include "sim/results/report.hpp"

namespace lightcode::dataset {

// What the root attributes and /inputs record (results_header gives the scenario's part).
struct Provenance {
  results::ResultsFile header;  // tool version, scenario name, text, digest, inputs
  std::vector<std::string> settings;
  SplitRule split;
};

class DatasetWriter {
 public:
  explicit DatasetWriter(const std::string& out);
  ~DatasetWriter();
  DatasetWriter(const DatasetWriter&) = delete;
  DatasetWriter& operator=(const DatasetWriter&) = delete;

  void add(PointRecords records);
  void finish(const Provenance& provenance);

  size_t rows(Table t) const { return rows_[static_cast<size_t>(t)]; }
  size_t points() const { return points_; }
  size_t failed() const { return failed_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::array<size_t, kTables> rows_{};
  size_t points_ = 0, failed_ = 0;
};

}  // namespace lightcode::dataset
