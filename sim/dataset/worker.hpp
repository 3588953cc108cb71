#pragma once
// Points whose records are made in worker processes: SystemC elaborates once per process, so
// every event-fidelity point runs in a forked child (as `lightcode sweep` runs its points). The
// child runs the point, makes its records (records.hpp) and writes them to a file in a private
// temporary directory: the tables' packed rows as they are (a header, then per table its row
// count, row size and bytes); the parent reads them back. A child that crashes or exits without
// records gives a failed point saying how; this never throws for the point's sake. The child
// dies with its parent. Fault injection for tests, as sweeps have it:
// LIGHTCODE_FAULT_CRASH_POINT=<id> makes that point's child die of SIGKILL before it writes.
#include <sys/types.h>

#include <memory>
#include <string>

#include "sim/core/output_file.hpp"
#include "sim/dataset/records.hpp"

namespace lightcode::dataset {

// The records as bytes and back (the format above). read throws lightcode::Error on a file
// that is not one whole records file of this schema.
std::string serialise(const PointRecords& records);
PointRecords deserialise(const std::string& bytes);

class RecordsWorker {
 public:
  // Forks the child; throws lightcode::Error when fork fails.
  RecordsWorker(const sweep::PointSpec& point, size_t index, const RecordContext& context);
  ~RecordsWorker();
  RecordsWorker(const RecordsWorker&) = delete;
  RecordsWorker& operator=(const RecordsWorker&) = delete;

  // Whether the child has ended (without waiting; true once it has).
  bool finished();
  // Its records, once finished() (a failed point when it left none).
  PointRecords take();

 private:
  const sweep::PointSpec* point_;
  size_t index_;
  const RecordContext* context_;
  std::unique_ptr<TemporaryDirectory> dir_;
  std::string path_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool done_ = false;
};

}  // namespace lightcode::dataset
