// run_point_in_child: one point per process, because SystemC elaborates once per process.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sim/results/hdf5_file.hpp"
#include "sim/sweep/run_point.hpp"

namespace lightcode::sweep {

results::PointResult failed_point(const PointSpec& p, const std::string& error) {
  results::PointResult r;
  r.summary.id = p.id;
  r.summary.parameters = p.parameters;
  r.summary.model = p.model;
  r.summary.stage = p.stage;
  r.summary.sequence_length = p.sequence_length;
  r.summary.system = p.system;
  r.summary.objective = p.objective;
  r.summary.profile = p.profile;
  r.summary.fidelity = p.fidelity;
  r.summary.status = "failed";
  r.summary.error = error;
  return r;
}

results::PointResult run_point_in_child(const PointSpec& point, const PointOptions& options) {
  char dir_template[] = "/tmp/lightcode-point-XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  if (!dir) return failed_point(point, std::string("cannot create a temporary directory: ") + std::strerror(errno));
  const std::string path = std::string(dir) + "/point.h5";
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) return failed_point(point, std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid == 0) {
    results::ResultsFile file;
    file.tool_version = "lightcode 0.1.0";
    try {
      file.points.push_back(run_point(point, options).result);
    } catch (const std::exception& e) {
      file.points.push_back(failed_point(point, e.what()));
    }
    try {
      results::write_results(path, file);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "lightcode: worker for point %s: %s\n", point.id.c_str(), e.what());
      std::fflush(stderr);
      ::_exit(3);
    }
    std::fflush(stdout);
    ::_exit(0);  // no static destructors: the SystemC kernel is not torn down twice
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  results::PointResult out;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && std::filesystem::exists(path)) {
    try {
      results::ResultsFile f = results::read_results(path);
      out = f.points.empty() ? failed_point(point, "worker wrote no result") : std::move(f.points[0]);
    } catch (const std::exception& e) {
      out = failed_point(point, std::string("unreadable worker result: ") + e.what());
    }
  } else if (WIFSIGNALED(status)) {
    out = failed_point(point, "worker crashed (signal " + std::to_string(WTERMSIG(status)) + ": " +
                                  strsignal(WTERMSIG(status)) + ")");
  } else {
    out = failed_point(point, "worker exited with status " + std::to_string(WEXITSTATUS(status)));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return out;
}

}  // namespace lightcode::sweep
