#pragma once
// One point's dataset records: the point run by its stage (sim/stages) with every task kept,
// the joint search's archive asked for and, for stage serve, every iteration kept, then read
// into packed rows (rows.hpp) of every table: its /points row, and per placed graph its
// /graphs, /ops, /edges, /placement and /alternatives rows, per serving iteration an
// /iterations row, and the /hardware rows of the systems it ran on. Ids in the rows are the
// point's own (graph 0, record 0 ...); the writer makes them global as it appends the point.
// Nothing here touches HDF5: records are made on worker threads, or in a worker process and
// passed through a file (worker.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "sim/dataset/hardware.hpp"
#include "sim/dataset/rows.hpp"
#include "sim/dataset/split.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/point/point_spec.hpp"

namespace lightcode::dataset {

struct PointRecords {
  size_t point = 0;
  bool ok = false;
  std::vector<Rows> tables;  // the streamed ones, by Table

  PointRecords();
  Rows& at(Table t) { return tables[static_cast<size_t>(t)]; }
  const Rows& at(Table t) const { return tables[static_cast<size_t>(t)]; }
};

struct RecordContext {
  SplitRule split;
  std::string scenario_dir;  // files are shown relative to it
  SystemCache* systems = nullptr;
  int threads =
      1;  // a point's own threads (PointOptions::threads): the records are the same for any
};

// Runs point `index` in this process (an event-fidelity point only in a process of its own:
// SystemC elaborates once per process) and returns its records. Never throws for the point's
// sake: a point that fails (its stage's error, a text longer than its column) gives its /points
// row with status failed and the reason, and no other row.
PointRecords point_records(const sweep::PointSpec& point, size_t index,
                           const RecordContext& context);
PointRecords failed_records(const sweep::PointSpec& point, size_t index,
                            const RecordContext& context, const std::string& error);

// The records of a point that ran (`run` as run_point returns it with PointOptions::every_task
// and keep_iterations). Throws lightcode::Error when a record does not fit its table.
PointRecords records_of_run(const sweep::PointSpec& point, size_t index, const sweep::PointRun& run,
                            const RecordContext& context);

// Helpers shared by records.cpp and graph_records.cpp.
namespace detail {
// `path` relative to `dir` when it is below or beside it, else as given.
std::string shown_path(const std::string& path, const std::string& dir);
struct PointLabels {
  std::string model_name;  // built-in name or the graph file's stem
  std::string family;
  std::string split;
};
PointLabels labels(const sweep::PointSpec& point, const RecordContext& context);
// Adds the graphs of a prefill, decode or generate point (or a pipeline's stages) to `out`.
void add_graph_records(const sweep::PointSpec& point, const sweep::PointRun& run,
                       const SystemEntry& system, const PointLabels& labels,
                       const RecordContext& context, PointRecords& out);
}  // namespace detail

}  // namespace lightcode::dataset
