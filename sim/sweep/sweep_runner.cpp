#include "sim/sweep/sweep_runner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/core/ordered_work.hpp"
#include "sim/sweep/provenance.hpp"
#include "sim/sweep/run_scenario.hpp"

namespace lightcode::sweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kMaxJobs = 1024;  // more workers than this only thrash; also output_file's child table

std::string part_path(const std::string& dir, const std::string& id) { return dir + "/" + id + ".h5"; }

std::string eta_text(double seconds) {
  char buf[32];
  if (seconds >= 3600) {
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60) % 60);
  } else if (seconds >= 60) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds / 60), static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%.0fs", seconds);
  }
  return buf;
}

}  // namespace

void parse_shard(const std::string& text, int& index, int& count) {
  const size_t slash = text.find('/');
  char* end = nullptr;
  if (slash != std::string::npos) {
    const long k = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str() + slash) {
      const long n = std::strtol(text.c_str() + slash + 1, &end, 10);
      if (*end == '\0' && k >= 1 && n >= 1 && k <= n) {
        index = static_cast<int>(k);
        count = static_cast<int>(n);
        return;
      }
    }
  }
  throw Error("--shard '" + text + "': expected K/N with 1 <= K <= N, e.g. 2/4");
}

SweepOptions sweep_options(const Scenario& scenario, uint64_t mark, int jobs, bool contention, const std::string& out) {
  validate_point_inputs(scenario.points);  // every file, once, before any point runs
  SweepOptions o;
  o.inputs = inputs_read_since(mark);
  // Command-line settings that change the points are part of what the results record.
  o.settings = scenario.sets;
  if (!contention) o.settings.push_back("contention=false");
  o.jobs = jobs;
  o.output = out.empty() ? default_output(scenario) : out;
  o.point.engine.contention = contention;
  o.point.threads = std::max(1, hardware_threads() / std::max(1, jobs));  // the cores shared by the jobs
  return o;
}

SweepOutcome run_sweep(const Scenario& scenario, const SweepOptions& o) {
  const auto started = Clock::now();
  if (o.jobs < 1 || o.jobs > kMaxJobs) throw Error("-j must be between 1 and " + std::to_string(kMaxJobs));
  check_output_path(o.output);
  // The results file, its parts and their folder are this sweep's alone until it returns.
  const OutputLock lock(o.output, "sweep " + scenario.file);
  const std::string parts = o.output + ".parts";
  {
    std::error_code ec;
    if (fs::exists(parts, ec) && !fs::is_directory(parts, ec)) {
      throw Error(SourcePlace{parts, 0, 0, ""}, "the sweep keeps finished points here, but it is not a directory");
    }
  }
  const results::ResultsFile header = results_header(scenario, o.settings, o.inputs);
  std::vector<const PointSpec*> shard;
  for (size_t i = 0; i < scenario.points.size(); ++i) {
    if (static_cast<int>(i % static_cast<size_t>(o.shard_count)) == o.shard_index - 1) shard.push_back(&scenario.points[i]);
  }
  std::map<std::string, results::PointResult> done;  // id -> result
  std::error_code ec;
  if (o.resume) {
    // Points of another scenario, or of this one on other inputs, are never taken.
    auto check = [&](const results::ResultsFile& f, const std::string& path, const std::string& written) {
      const std::string change = provenance_change(f, header, scenario.file, written);
      if (!change.empty()) {
        throw Error(SourcePlace{path, 0, 0, ""}, "--resume: " + change + "; run without --resume to start over");
      }
    };
    if (fs::exists(o.output, ec)) {
      results::ResultsFile previous = results::read_results(o.output);
      check(previous, o.output, o.output + " was written");
      for (auto& p : previous.points) {
        if (p.summary.status == results::Status::ok) done[p.summary.id] = std::move(p);
      }
    }
    if (fs::is_directory(parts, ec)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::directory_iterator(parts, ec)) {
        if (entry.path().extension() == ".h5") files.push_back(entry.path().string());
      }
      std::sort(files.begin(), files.end());
      for (const std::string& file : files) {
        check_input_file(file, "part of the sweep");  // a FIFO would block the reader
        results::ResultsFile f;
        try {
          f = results::read_results(file);
        } catch (const Error&) {
          continue;  // a part cut short by the interruption: its point runs again
        }
        check(f, file, "the parts were written");
        for (auto& p : f.points) {
          if (p.summary.status == results::Status::ok) done[p.summary.id] = std::move(p);
        }
      }
    }
  } else {
    fs::remove_all(parts, ec);
  }
  fs::create_directories(parts, ec);
  if (ec) throw Error(SourcePlace{parts, 0, 0, ""}, "cannot create the parts directory: " + ec.message());
  remove_stale_temporaries(parts);  // left by workers killed in an earlier run

  SweepOutcome out;
  out.points = shard.size();
  std::vector<const PointSpec*> todo;
  for (const PointSpec* p : shard) {
    if (done.count(p->id)) {
      ++out.resumed;
    } else {
      todo.push_back(p);
    }
  }
  if (o.progress && out.resumed > 0) {
    *o.progress << "resume: " << out.resumed << " of " << shard.size() << " points already done, running " << todo.size() << "\n";
  }

  // Points run now live in their parts until the end; resumed ones come from `done`.
  std::set<std::string> from_part;
  auto assemble = [&] {
    results::ResultsFile f = header;
    for (const PointSpec* p : shard) {
      if (from_part.count(p->id)) {
        const std::string path = part_path(parts, p->id);
        results::ResultsFile part = results::read_results(path);
        if (part.scenario_digest != header.scenario_digest) {  // the lock keeps other sweeps out
          throw Error(SourcePlace{path, 0, 0, ""}, "this part was not written by this sweep: " +
                                                       provenance_change(part, header, scenario.file, "it was written"));
        }
        for (auto& point : part.points) f.points.push_back(std::move(point));
      } else if (auto it = done.find(p->id); it != done.end()) {
        f.points.push_back(std::move(it->second));
      }
    }
    results::write_results(o.output, f);
    return f;
  };

  std::map<pid_t, const PointSpec*> running;
  size_t next = 0, finished = 0;
  auto report = [&](const PointSpec& p, const results::PointResult& r) {
    if (!o.progress) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const double rate = static_cast<double>(finished) / std::max(elapsed, 1e-9);
    const double eta = rate > 0 ? static_cast<double>(todo.size() - finished) / rate : 0.0;
    if (o.progress_bar) {
      const int width = 30;
      const int filled = static_cast<int>(width * static_cast<double>(finished) / static_cast<double>(std::max<size_t>(todo.size(), 1)));
      *o.progress << "\r[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(width - filled), '.')
                  << "] " << finished << "/" << todo.size() << " points, ";
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f points/s, ETA %s", rate, eta_text(eta).c_str());
      *o.progress << buf << (out.failed ? ", " + std::to_string(out.failed) + " failed" : "") << "   " << std::flush;
      if (finished == todo.size()) *o.progress << "\n";
    } else {
      *o.progress << "[" << finished << "/" << todo.size() << "] " << p.id << " " << results::status_name(r.summary.status)
                  << (r.summary.status == results::Status::ok ? "" : ": " + r.summary.error) << "\n";
    }
  };

  try {
    while (finished < todo.size()) {
      while (running.size() < static_cast<size_t>(o.jobs) && next < todo.size()) {
        const PointSpec* p = todo[next++];
        running[start_point_worker(*p, o.point, part_path(parts, p->id), header)] = p;
      }
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        throw Error(std::string("waiting for workers: ") + std::strerror(errno));
      }
      auto it = running.find(pid);
      if (it == running.end()) continue;
      unregister_child_process(pid);
      const PointSpec& p = *it->second;
      running.erase(it);
      // A point that ran is not read back here: its part is read once, at the end.
      const results::PointResult r = collect_point_worker(p, status, part_path(parts, p.id), header, false);
      ++finished;
      ++out.ran;
      if (r.summary.status != results::Status::ok) ++out.failed;
      report(p, r);
      // The part on disk is the durable copy; nothing of the point stays in memory.
      from_part.insert(p.id);
    }
  } catch (...) {
    // A full disk, say: stop the workers still running and wait for them, so that none
    // outlives the sweep or writes after it reported the error. Finished parts stay.
    for (const auto& [pid, point] : running) ::kill(pid, SIGTERM);
    for (const auto& [pid, point] : running) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      unregister_child_process(pid);
    }
    throw;
  }
  const results::ResultsFile final_file = assemble();
  fs::remove_all(parts, ec);
  for (const auto& p : final_file.points) out.summaries.push_back(p.summary);
  out.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return out;
}

}  // namespace lightcode::sweep
