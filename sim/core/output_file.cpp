#include "sim/core/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTemporaryTag = ".lightcode-";
constexpr std::string_view kTemporarySuffix = ".tmp";

// The signal handler reads these: fixed storage, atomics, no allocation. A slot is claimed
// (free -> writing), filled, then published (ready); the handler touches ready slots only.
constexpr size_t kTemporarySlots = 64;
enum SlotState : int { kFree, kWriting, kReady };
struct TemporarySlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};
std::array<TemporarySlot, kTemporarySlots> g_temporaries;

constexpr size_t kChildSlots = 1024;
std::array<std::atomic<pid_t>, kChildSlots> g_children{};

std::atomic<unsigned> g_temporary_counter{0};

int register_temporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (size_t i = 0; i < kTemporarySlots; ++i) {
    int expected = kFree;
    if (!g_temporaries[i].state.compare_exchange_strong(expected, kWriting)) continue;
    std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
    g_temporaries[i].state.store(kReady);
    return static_cast<int>(i);
  }
  return -1;  // more than 64 at once: still removed on errors, only not on signals
}

void release_temporary(int slot) {
  if (slot >= 0) g_temporaries[static_cast<size_t>(slot)].state.store(kFree);
}

void on_signal(int sig) {
  const int saved = errno;
  // Files first, then directories (which are empty only once their files are gone).
  for (auto& slot : g_temporaries) {
    if (slot.state.load() == kReady) ::unlink(slot.path);
  }
  for (auto& slot : g_temporaries) {
    if (slot.state.load() == kReady) ::rmdir(slot.path);
  }
  for (auto& child : g_children) {
    const pid_t pid = child.load();
    if (pid > 0) ::kill(pid, sig);
  }
  errno = saved;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}


// ".<name>.lightcode-<pid>-<n>.tmp<extension>": hidden, and naming the process that owns it.
std::string temporary_for(const std::string& target, std::string_view extension = "") {
  const fs::path p(target);
  const std::string name = "." + p.filename().string() + std::string(kTemporaryTag) + std::to_string(::getpid()) +
                           "-" + std::to_string(g_temporary_counter++) + std::string(kTemporarySuffix) +
                           std::string(extension);
  return (p.parent_path() / name).string();
}

void make_parent(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) fail_at(path, "cannot create directory '" + parent.string() + "': " + ec.message());
}

void write_all(int fd, std::string_view bytes, const std::string& target) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_at(target, std::string("cannot write: ") + std::strerror(errno));
    done += static_cast<size_t>(n);
  }
}

void sync_directory(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: some file systems refuse to open directories
  ::fsync(fd);
  ::close(fd);
}

bool process_exists(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno != ESRCH); }

}  // namespace

void check_output_path(const std::string& path) {
  if (path.empty()) throw Error("an output path is empty");
  const std::string name = fs::path(path).filename().string();
  if (name.empty() || name == "." || name == "..") fail_at(path, "an output path must name a file");
  if (static_cast<int64_t>(name.size()) > limits::kOutputNameBytes.value) {
    fail_at(path, "output file name is " + std::to_string(name.size()) + " bytes, above the limit of " +
                      std::to_string(limits::kOutputNameBytes.value) + " (" +
                      std::string(limits::kOutputNameBytes.name) + ")");
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      fail_at(path, std::string("refusing to write an output here: it is ") + file_type_name(st.st_mode) +
                        ", not a regular file");
    }
    const std::string input = input_file_matching(path);
    if (!input.empty()) {
      fail_at(path, "refusing to overwrite '" + input + "', an input of this run; choose another output path");
    }
  }
}

void write_output_file(const std::string& path, std::string_view bytes, bool durable, bool clean_stale) {
  check_output_path(path);
  make_parent(path);
  if (clean_stale) remove_stale_temporaries(fs::path(path).parent_path().string());
  const std::string temporary = temporary_for(path);
  const int slot = register_temporary(temporary);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int saved = errno;
    release_temporary(slot);
    fail_at(path, std::string("cannot create a temporary file beside it: ") + std::strerror(saved));
  }
  try {
    write_all(fd, bytes, path);
    if (durable && ::fsync(fd) != 0) fail_at(path, std::string("cannot sync: ") + std::strerror(errno));
    if (::close(fd) != 0) {
      // close reports deferred write errors (NFS, some full-disk cases).
      fail_at(path, std::string("cannot write: ") + std::strerror(errno));
    }
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    release_temporary(slot);
    throw;
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    release_temporary(slot);
    fail_at(path, std::string("cannot rename the temporary file over it: ") + std::strerror(saved));
  }
  release_temporary(slot);
  if (durable) sync_directory(path);
}

OutputTemporary::OutputTemporary(const std::string& target, std::string_view extension) : target_(target) {
  check_output_path(target);
  make_parent(target);
  remove_stale_temporaries(fs::path(target).parent_path().string());
  temporary_ = temporary_for(target, extension);
  slot_ = register_temporary(temporary_);
}

OutputTemporary::~OutputTemporary() {
  if (!committed_) ::unlink(temporary_.c_str());
  release_temporary(slot_);
}

void OutputTemporary::commit() {
  struct stat st {};
  if (::stat(temporary_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    fail_at(target_, "the writer produced no file");
  }
  check_output_path(target_);
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    fail_at(target_, std::string("cannot rename the temporary file over it: ") + std::strerror(errno));
  }
  committed_ = true;
}

TemporaryDirectory::TemporaryDirectory() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/lightcode-point-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    throw Error(std::string("cannot create a temporary directory in '") + (base && *base ? base : "/tmp") +
                "': " + std::strerror(errno));
  }
  path_ = pattern;
  slots_[0] = register_temporary(path_);
}

std::string TemporaryDirectory::file(const std::string& name) {
  const std::string p = path_ + "/" + name;
  if (slots_[1] < 0) slots_[1] = register_temporary(p);
  return p;
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  release_temporary(slots_[0]);
  release_temporary(slots_[1]);
}

void remove_stale_temporaries(const std::string& directory) {
  DIR* dir = ::opendir(directory.empty() ? "." : directory.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name(entry->d_name);
    // ".<name>.lightcode-<pid>-<n>.tmp[<extension>]"
    const size_t tag = name.rfind(kTemporaryTag);
    if (name.empty() || name[0] != '.' || tag == std::string_view::npos) continue;
    const std::string rest(name.substr(tag + kTemporaryTag.size()));
    char* end = nullptr;
    const long pid = std::strtol(rest.c_str(), &end, 10);
    if (end == rest.c_str() || *end != '-') continue;
    const char* after = end + 1;
    while (*after >= '0' && *after <= '9') ++after;
    if (std::string_view(after).substr(0, kTemporarySuffix.size()) != kTemporarySuffix) continue;
    if (process_exists(static_cast<pid_t>(pid))) continue;
    ::unlink((fs::path(directory) / std::string(name)).c_str());
  }
  ::closedir(dir);
}

void install_cleanup_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
  ::signal(SIGXFSZ, SIG_IGN);
}

void register_child_process(pid_t pid) {
  for (auto& child : g_children) {
    pid_t empty = 0;
    if (child.compare_exchange_strong(empty, pid)) return;
  }
}

void unregister_child_process(pid_t pid) {
  for (auto& child : g_children) {
    pid_t expected = pid;
    if (child.compare_exchange_strong(expected, 0)) return;
  }
}

void forget_inherited_cleanup() {
  for (auto& slot : g_temporaries) slot.state.store(kFree);
  for (auto& child : g_children) child.store(0);
}

}  // namespace lightcode
