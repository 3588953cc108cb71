#include "sim/dataset/dataset.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "sim/core/error.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/dataset/records.hpp"
#include "sim/dataset/worker.hpp"
#include "sim/dataset/writer.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/provenance.hpp"

namespace lightcode::dataset {
namespace {

using Clock = std::chrono::steady_clock;

int64_t peak_rss_bytes() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
}

// Every input recorded once, by path (the later read's digest when a file was read twice).
std::vector<RecordedInput> merged(std::vector<RecordedInput> a,
                                  const std::vector<RecordedInput>& b) {
  std::map<std::string, std::string> by_path;
  for (const RecordedInput& i : a) by_path[i.path] = i.sha256;
  for (const RecordedInput& i : b) by_path[i.path] = i.sha256;
  a.clear();
  for (const auto& [path, sha] : by_path) a.push_back(RecordedInput{path, sha});
  return a;
}

class Progress {
 public:
  Progress(const DatasetOptions& o, size_t points)
      : out_(o.progress), bar_(o.progress_bar), points_(points) {}
  // After the writer took the point whose /points row is `row`.
  void point(const Rows& row, bool ok, const DatasetWriter& w) {
    if (!out_) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    char line[256];
    std::snprintf(line, sizeof line, "[%zu/%zu] %zu op records, %zu failed, %.1f s", w.points(),
                  points_, w.rows(Table::ops), w.failed(), seconds);
    if (bar_) {
      // A terminal: one line, rewritten at most a few times a second (and at the end).
      if (w.points() < points_ && seconds - shown_ < 0.2 && ok) return;
      shown_ = seconds;
      *out_ << "\r" << line << (w.points() == points_ ? "\n" : "") << std::flush;
    } else {
      *out_ << line << ": " << row.text(0, points_col::point_id) << " "
            << row.text(0, points_col::status) << "\n";
    }
    if (!ok) {
      *out_ << (bar_ ? "\n" : "") << "lightcode: point " << row.text(0, points_col::point_id)
            << " failed: " << row.text(0, points_col::error) << "\n";
    }
  }

 private:
  std::ostream* out_;
  bool bar_;
  size_t points_;
  Clock::time_point started_ = Clock::now();
  double shown_ = -1.0;
};

// Every point in this process, `jobs` at a time, taken in order. Up to 8 points per job are
// made ahead of the writer: with 2 they waited behind a long point at the head half the time
// (1.4 of 2 cores busy on scenarios/dataset.yaml; 1.9 with 8, peak memory 160 MiB for the 1 M
// record study instead of 115).
void run_in_threads(const sweep::Scenario& s, const RecordContext& context, int jobs,
                    DatasetWriter& writer, Progress& progress) {
  const auto count = static_cast<int64_t>(s.points.size());
  OrderedWork<PointRecords> work(count, jobs, 8 * static_cast<int64_t>(jobs), [&](int64_t i) {
    return point_records(s.points[static_cast<size_t>(i)], static_cast<size_t>(i), context);
  });
  for (int64_t i = 0; i < count; ++i) {
    PointRecords r = work.next();
    const Rows row = r.at(Table::points);
    const bool ok = r.ok;
    writer.add(std::move(r));
    progress.point(row, ok, writer);
  }
}

// Every point in a worker process, `jobs` at a time; records taken in scenario order.
void run_in_processes(const sweep::Scenario& s, const RecordContext& context, int jobs,
                      DatasetWriter& writer, Progress& progress) {
  const size_t count = s.points.size();
  const size_t window = 4 * static_cast<size_t>(jobs);  // finished and waiting: files, not memory
  std::map<size_t, std::unique_ptr<RecordsWorker>> running;
  size_t next_start = 0, next_write = 0;
  while (next_write < count) {
    size_t active = 0;
    for (auto& [index, worker] : running) active += worker->finished() ? 0 : 1;
    while (active < static_cast<size_t>(jobs) && next_start < count &&
           next_start < next_write + window) {
      running.emplace(next_start,
                      std::make_unique<RecordsWorker>(s.points[next_start], next_start, context));
      ++next_start;
      ++active;
    }
    const auto head = running.find(next_write);
    if (head != running.end() && head->second->finished()) {
      PointRecords r = head->second->take();
      running.erase(head);
      const Rows row = r.at(Table::points);
      const bool ok = r.ok;
      writer.add(std::move(r));
      progress.point(row, ok, writer);
      ++next_write;
      continue;
    }
    ::usleep(
        2000);  // a point takes milliseconds at least; waitpid on one child would block the others
  }
}

}  // namespace

DatasetSummary write_dataset(const sweep::Scenario& scenario, const DatasetOptions& options) {
  const Clock::time_point started = Clock::now();
  if (options.out.empty()) throw Error("a dataset needs an output file (--out FILE.h5)");
  if (options.jobs < 1) throw Error("jobs must be at least 1");
  Provenance provenance;
  provenance.split = SplitRule{options.validation_families, options.test_families};
  check_split_rule(provenance.split);
  check_output_path(options.out);
  const OutputLock lock(options.out, "dataset " + scenario.file);  // no other writer meanwhile
  // Every input is read and checked before the first point runs; the files read are recorded.
  const uint64_t mark = input_mark();
  sweep::validate_point_inputs(scenario.points);
  provenance.settings = scenario.sets;
  provenance.header = sweep::results_header(scenario, provenance.settings,
                                            merged(options.inputs, inputs_read_since(mark)));

  SystemCache systems;
  RecordContext context;
  context.split = provenance.split;
  context.scenario_dir = std::filesystem::path(scenario.file).parent_path().string();
  if (context.scenario_dir.empty()) context.scenario_dir = ".";
  context.systems = &systems;
  context.threads = std::max(1, hardware_threads() / options.jobs);
  const bool processes =
      std::any_of(scenario.points.begin(), scenario.points.end(),
                  [](const sweep::PointSpec& p) { return p.fidelity == Fidelity::event; });
  DatasetWriter writer(options.out);
  Progress progress(options, scenario.points.size());
  if (processes) {
    run_in_processes(scenario, context, options.jobs, writer, progress);
  } else {
    run_in_threads(scenario, context, options.jobs, writer, progress);
  }
  writer.finish(provenance);

  DatasetSummary s;
  s.out = options.out;
  s.points = writer.points();
  s.failed = writer.failed();
  s.graphs = writer.rows(Table::graphs);
  s.ops = writer.rows(Table::ops);
  s.edges = writer.rows(Table::edges);
  s.placement = writer.rows(Table::placement);
  s.alternatives = writer.rows(Table::alternatives);
  s.iterations = writer.rows(Table::iterations);
  s.hardware = writer.rows(Table::hardware);
  s.hardware_parameters = writer.rows(Table::hardware_parameters);
  s.families = writer.rows(Table::families);
  s.worker_processes = processes;
  s.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  s.peak_rss_bytes = peak_rss_bytes();
  return s;
}

DatasetSummary write_dataset(const std::string& scenario_file, const std::vector<std::string>& sets,
                             DatasetOptions options) {
  const uint64_t mark = input_mark();  // the files read from here on are the scenario's inputs
  const sweep::Scenario scenario = sweep::load_scenario(scenario_file, sets);
  options.inputs = merged(options.inputs, inputs_read_since(mark));
  return write_dataset(scenario, options);
}

}  // namespace lightcode::dataset
