#pragma once
// Writing outputs. Every file LightCode writes (results, dispatch tables, traces, listings,
// waveforms, calibrated specs, sweep parts) goes through here, so that no output destroys a
// file and no failure leaves a partial one:
//  - check_output_path: an existing path that is not a regular file (a FIFO, a device such as
//    /dev/null, a directory) is an error; so is a path that is an input of this run (a
//    scenario, system, hardware, graph or timings file read by read_input_file) — the input
//    stays untouched; so is a file name above limits::kOutputNameBytes. Commands call it for
//    every output before any work, and the writers call it again.
//  - write_output_file: the bytes go to a temporary beside the target
//    (".<name>.lightcode-<pid>-<n>.tmp"), are synced when `durable`, then renamed over the
//    target. On any failure (a full disk: ENOSPC, EFBIG, EDQUOT) the temporary is removed, the
//    target is left as it was, and lightcode::Error says why.
//  - temporaries are registered while they exist: install_cleanup_handlers() makes SIGINT,
//    SIGTERM and SIGHUP remove them (and pass the signal to registered child processes)
//    before the process dies of the signal. Temporaries left by a SIGKILLed process are
//    removed by the next write beside them (remove_stale_temporaries), or ignored.
#include <sys/types.h>

#include <string>
#include <string_view>

namespace lightcode {

void check_output_path(const std::string& path);
// `durable`: fsync the data and the directory (false for sweep parts: the rename still makes
// them atomic against a killed process). `clean_stale`: first remove stale temporaries beside
// the target (false where a directory holds thousands of files and the caller cleans once).
void write_output_file(const std::string& path, std::string_view bytes, bool durable = true,
                       bool clean_stale = true);

// A temporary path beside `target` for a writer that creates the file itself (SystemC's VCD
// writer), ending in `extension` (writers that append one): registered for signal cleanup;
// commit() checks and renames it over the target; destroying it uncommitted removes it.
class OutputTemporary {
 public:
  explicit OutputTemporary(const std::string& target, std::string_view extension = "");
  ~OutputTemporary();
  OutputTemporary(const OutputTemporary&) = delete;
  OutputTemporary& operator=(const OutputTemporary&) = delete;

  const std::string& path() const { return temporary_; }
  void commit();

 private:
  std::string target_;
  std::string temporary_;
  int slot_ = -1;
  bool committed_ = false;
};

// A private directory for one file passed between processes (a worker's result), created in
// $TMPDIR (else /tmp), registered for signal cleanup with the file in it, removed with its
// contents when destroyed. Throws lightcode::Error when it cannot be created.
class TemporaryDirectory {
 public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` inside; registered for cleanup too.
  std::string file(const std::string& name);

 private:
  std::string path_;
  int slots_[2] = {-1, -1};
};

// Removes temporaries in `directory` whose process no longer exists.
void remove_stale_temporaries(const std::string& directory);

// Once, at program start: SIGINT, SIGTERM and SIGHUP clean up, then end the process as the
// signal would; SIGXFSZ is ignored so that a file-size limit is a write error, not a crash.
void install_cleanup_handlers();
// Child processes (sweep workers) that a SIGINT/SIGTERM/SIGHUP of this process is passed on to.
void register_child_process(pid_t pid);
void unregister_child_process(pid_t pid);
// In a freshly forked child: forget the parent's temporaries and children (they are not ours).
void forget_inherited_cleanup();

}  // namespace lightcode
