#include "sim/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/sha256.hpp"

namespace lightcode {
namespace {

struct InputFile {
  dev_t device;
  ino_t inode;
  std::string path;      // as spelled by the first read (messages)
  std::string absolute;  // absolute, lexically normal, as spelled by the last read
  std::string sha256;    // of the bytes the last read returned
  uint64_t last_read;    // g_reads when it was last read
  // What reuse_input_file compares: the file as the last read found it, and when that was.
  off_t size = -1;
  int64_t modified_ns = 0;
  int64_t read_at_ns = 0;
};

// Inputs of this process. Sweep workers inherit their parent's list through fork().
std::mutex g_inputs_mutex;
std::vector<InputFile> g_inputs;
uint64_t g_reads = 0;

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

int64_t nanoseconds(const struct timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

int64_t now_ns() {
  struct timespec t {};
  ::clock_gettime(CLOCK_REALTIME, &t);
  return nanoseconds(t);
}

void remember(const struct stat& st, const std::string& path, std::string sha256) {
  std::string absolute = absolute_path(path);
  const int64_t read_at = now_ns();
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  ++g_reads;
  for (InputFile& f : g_inputs) {
    if (f.device == st.st_dev && f.inode == st.st_ino) {
      f.absolute = std::move(absolute);
      f.sha256 = std::move(sha256);
      f.last_read = g_reads;
      f.size = st.st_size;
      f.modified_ns = nanoseconds(st.st_mtim);
      f.read_at_ns = read_at;
      return;
    }
  }
  g_inputs.push_back(InputFile{st.st_dev, st.st_ino, path, std::move(absolute), std::move(sha256), g_reads,
                               st.st_size, nanoseconds(st.st_mtim), read_at});
}


// Opens `path` for reading, refusing what is not a regular file without blocking on a FIFO.
int open_regular(const std::string& path, std::string_view what, struct stat& opened) {
  const std::string cannot = "cannot open " + std::string(what);
  // O_NONBLOCK: were the path swapped for a FIFO after stat, open must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail_at(path, cannot + ": " + std::strerror(errno));
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    fail_at(path, cannot + ": not a regular file");
  }
  return fd;
}

}  // namespace

const char* file_type_name(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void check_input_file(const std::string& path, std::string_view what) {
  const std::string cannot = "cannot open " + std::string(what);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail_at(path, cannot + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail_at(path, cannot + ": it is " + file_type_name(st.st_mode) + ", not a regular file");
}

std::string read_input_file(const std::string& path, std::string_view what, const Limit& max_bytes) {
  check_input_file(path, what);
  struct stat opened {};
  const int fd = open_regular(path, what, opened);
  if (opened.st_size > max_bytes.value) {
    ::close(fd);
    fail_at(path, std::string(what) + " is " + std::to_string(opened.st_size) + " bytes, above the limit of " +
                      std::to_string(max_bytes.value) + " (" + std::string(max_bytes.name) + ")");
  }
  std::string text;
  text.resize(static_cast<size_t>(opened.st_size));
  size_t done = 0;
  // Reads at most the size stat gave (plus nothing): a file growing meanwhile is cut there.
  while (done < text.size()) {
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      fail_at(path, "cannot read " + std::string(what) + ": " + std::strerror(saved));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(done);
  remember(opened, path, sha256_hex(text));
  return text;
}

void note_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  if (!S_ISREG(st.st_mode)) {
    remember(st, path, "");
    return;
  }
  struct stat opened {};
  const int fd = open_regular(path, "input file", opened);
  Sha256 digest;
  std::array<char, 1 << 16> buffer;
  while (true) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      fail_at(path, std::string("cannot read input file: ") + std::strerror(saved));
    }
    if (n == 0) break;
    digest.update(std::string_view(buffer.data(), static_cast<size_t>(n)));
  }
  ::close(fd);
  remember(opened, path, digest.finish_hex());
}

std::string reuse_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  std::string absolute = absolute_path(path);
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  for (InputFile& f : g_inputs) {
    if (f.device != st.st_dev || f.inode != st.st_ino) continue;
    const int64_t modified = nanoseconds(st.st_mtim);
    if (f.sha256.empty() || f.size != st.st_size || f.modified_ns != modified ||
        f.read_at_ns - modified <= kUnchangedMarginNs) {
      return "";
    }
    ++g_reads;
    f.absolute = std::move(absolute);
    f.last_read = g_reads;
    return f.sha256;
  }
  return "";
}

std::string input_file_matching(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  for (const InputFile& f : g_inputs) {
    if (f.device == st.st_dev && f.inode == st.st_ino) return f.path;
  }
  return "";
}

uint64_t input_mark() {
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  return g_reads;
}

std::vector<RecordedInput> inputs_read_since(uint64_t mark) {
  std::vector<RecordedInput> out;
  {
    const std::lock_guard<std::mutex> lock(g_inputs_mutex);
    for (const InputFile& f : g_inputs) {
      if (f.last_read > mark) out.push_back(RecordedInput{f.absolute, f.sha256});
    }
  }
  std::sort(out.begin(), out.end(), [](const RecordedInput& a, const RecordedInput& b) { return a.path < b.path; });
  return out;
}

}  // namespace lightcode
