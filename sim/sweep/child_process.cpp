// run_point_in_child: one point per process, because SystemC elaborates once per process.
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/run_point.hpp"

namespace lightcode::sweep {

results::PointResult failed_point(const PointSpec& p, const std::string& error) {
  results::PointResult r;
  r.summary.id = p.id;
  r.summary.parameters = p.parameters;
  r.summary.model = p.model;
  r.summary.stage = std::string(stage_name(p.stage));
  r.summary.parts = stage_info(p.stage).summary_parts;
  r.summary.sequence_length = p.sequence_length;
  r.summary.system = p.system;
  r.summary.objective = p.objective;
  r.summary.profile = p.profile;
  r.summary.scheduler = p.scheduler;
  r.summary.fidelity = std::string(fidelity_name(p.fidelity));
  r.summary.status = results::Status::failed;
  r.summary.error = error;
  return r;
}

namespace {

void write_point(const std::string& path, const results::ResultsFile& header, results::PointResult point) {
  results::ResultsFile f = header;
  f.tool_version = "lightcode 0.1.0";
  f.points.push_back(std::move(point));
  // Atomic against a killed process; the sweep removes stale temporaries of its parts once.
  results::write_results(path, f, /*durable=*/false, /*clean_stale=*/false);
}

}  // namespace

int start_point_worker(const PointSpec& point, const PointOptions& options, const std::string& path,
                       const results::ResultsFile& header) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid > 0) {
    register_child_process(pid);  // a SIGTERM of the parent reaches it
    return pid;
  }
  forget_inherited_cleanup();
  release_inherited_output_locks();  // the parent's lock is the parent's: it ends with it
  // A parent killed outright (kill -9) takes its workers along: none goes on writing parts
  // after it, into a folder another sweep may own by then.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(3);
  if (const char* crash = std::getenv("LIGHTCODE_FAULT_CRASH_POINT"); crash && point.id == crash) ::raise(SIGKILL);
  results::PointResult r;
  try {
    r = run_point(point, options).result;
  } catch (const std::exception& e) {
    r = failed_point(point, e.what());
  }
  const bool ok = r.summary.status == results::Status::ok;
  try {
    write_point(path, header, std::move(r));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightcode: worker for point %s: %s\n", point.id.c_str(), e.what());
    std::fflush(stderr);
    ::_exit(3);
  }
  std::fflush(stdout);
  ::_exit(ok ? 0 : kPointFailedExit);  // no static destructors: SystemC is not torn down twice
}

results::PointResult collect_point_worker(const PointSpec& point, int status, const std::string& path,
                                          const results::ResultsFile& header, bool read_ok) {
  const bool exited = WIFEXITED(status);
  const int code = exited ? WEXITSTATUS(status) : -1;
  std::error_code ec;
  if (exited && code == 0 && !read_ok && std::filesystem::exists(path, ec)) {
    results::PointResult r;
    r.summary.id = point.id;
    return r;
  }
  if (exited && (code == 0 || code == kPointFailedExit)) {
    try {
      results::ResultsFile f = results::read_results(path);
      if (!f.points.empty()) return std::move(f.points[0]);
    } catch (const Error&) {
    }
  }
  const std::string why = WIFSIGNALED(status)
                              ? "worker crashed (signal " + std::to_string(WTERMSIG(status)) + ": " +
                                    strsignal(WTERMSIG(status)) + ")"
                              : "worker exited with status " + std::to_string(code) + " and no result";
  results::PointResult r = failed_point(point, why);
  write_point(path, header, r);  // recorded like any other point
  return r;
}

results::PointResult run_point_in_child(const PointSpec& point, const PointOptions& options) {
  results::PointResult out;
  try {
    TemporaryDirectory dir;
    const std::string path = dir.file("point.h5");
    const results::ResultsFile header;  // a file passed to this process only: no provenance
    const int pid = start_point_worker(point, options, path, header);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregister_child_process(pid);
    out = collect_point_worker(point, status, path, header, /*read_ok=*/true);
  } catch (const Error& e) {
    out = failed_point(point, e.what());
  }
  return out;
}

}  // namespace lightcode::sweep
