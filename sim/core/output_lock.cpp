#include "sim/core/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"

namespace lightcode {
namespace {

std::mutex g_locks_mutex;
std::vector<int> g_locks;  // descriptors of the locks this process holds

// A lock file is a few lines; more is not ours to print.
constexpr size_t kHolderBytes = 4096;

std::string now_utc() {
  const std::time_t seconds = std::time(nullptr);
  std::tm utc{};
  char text[32] = "?";
  if (gmtime_r(&seconds, &utc)) std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// "pid 1234, started 2024-01-31T12:00:00Z: lightcode sweep x.yaml" from the lock file's lines.
std::string holder(int fd) {
  std::string text(kHolderBytes, '\0');
  ssize_t n = -1;
  while ((n = ::pread(fd, text.data(), text.size(), 0)) < 0 && errno == EINTR) {
  }
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  std::string pid, started, command;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "pid") pid = value;
    if (key == "started") started = value;
    if (key == "command") command = value;
    at = end + 1;
  }
  if (pid.empty()) return "it has just started and not yet written its pid";
  return "pid " + pid + (started.empty() ? "" : ", started " + started) +
         (command.empty() ? "" : ": lightcode " + command);
}


}  // namespace

OutputLock::OutputLock(const std::string& path, const std::string& what) : lock_path_(path + ".lock") {
  const std::filesystem::path parent = std::filesystem::path(lock_path_).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  // A releasing holder removes the file: a taker that opened it just before retries on the new one.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) fail_at(lock_path_, std::string("cannot open the lock of '") + path + "': " + std::strerror(errno));
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
      ::close(fd);
      fail_at(lock_path_, "cannot lock '" + path + "' here: it is " + file_type_name(opened.st_mode) +
                              ", not a regular file");
    }
    int locked = 0;
    while ((locked = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (locked != 0) {
      const int saved = errno;
      const std::string who = saved == EWOULDBLOCK ? holder(fd) : "";
      ::close(fd);
      if (saved != EWOULDBLOCK) fail_at(lock_path_, std::string("cannot lock '") + path + "': " + std::strerror(saved));
      fail_at(path, "another LightCode process is writing it (" + who + "); wait for it to end, or write elsewhere");
    }
    struct stat now {};
    if (::stat(lock_path_.c_str(), &now) != 0 || now.st_dev != opened.st_dev || now.st_ino != opened.st_ino) {
      ::close(fd);  // removed or replaced by its last holder: lock the file that is there now
      continue;
    }
    const std::string text = "pid " + std::to_string(::getpid()) + "\nstarted " + now_utc() + "\ncommand " + what + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
      const int saved = errno;
      ::unlink(lock_path_.c_str());
      ::close(fd);
      fail_at(lock_path_, std::string("cannot write the lock of '") + path + "': " + std::strerror(saved));
    }
    fd_ = fd;
    const std::lock_guard<std::mutex> lock(g_locks_mutex);
    g_locks.push_back(fd_);
    return;
  }
  fail_at(lock_path_, "cannot lock '" + path + "': the lock file keeps being replaced");
}

OutputLock::~OutputLock() {
  {
    const std::lock_guard<std::mutex> lock(g_locks_mutex);
    g_locks.erase(std::remove(g_locks.begin(), g_locks.end(), fd_), g_locks.end());
  }
  ::unlink(lock_path_.c_str());  // while still locked: a waiting taker sees it gone and retries
  ::close(fd_);
}

void release_inherited_output_locks() {
  const std::lock_guard<std::mutex> lock(g_locks_mutex);
  for (const int fd : g_locks) ::close(fd);
  g_locks.clear();
}

}  // namespace lightcode
