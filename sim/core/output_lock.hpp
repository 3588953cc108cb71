#pragma once
// One writer per results file. OutputLock holds flock(2) on "<path>.lock" for its lifetime, so
// that two LightCode processes (two sweeps, a sweep and a run) never write the same results or
// share a sweep's parts folder. The kernel releases the lock when the holder ends, however it
// ends (kill -9 included): a lock file left behind never blocks anyone. The file names its
// holder, "pid <n>\nstarted <ISO-8601 UTC>\ncommand <what>\n"; a second taker is refused at
// once with lightcode::Error naming the path and that holder. The holder removes the file when
// it lets go (a taker that opened it meanwhile notices and opens the new one).
// Processes forked while a lock is held share it until they exit: worker processes call
// release_inherited_output_locks() first thing, so that only the holder keeps it.
#include <string>

namespace lightcode {

class OutputLock {
 public:
  // `what` says what the holder does ("sweep scenarios/x.yaml"), for the refusal message.
  OutputLock(const std::string& path, const std::string& what);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  const std::string& lock_path() const { return lock_path_; }

 private:
  std::string lock_path_;
  int fd_ = -1;
};

// In a freshly forked child: close the locks the parent holds (without unlocking them).
void release_inherited_output_locks();

}  // namespace lightcode
