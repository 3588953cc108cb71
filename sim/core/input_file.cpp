#include "sim/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "sim/core/error.hpp"

namespace lightcode {
namespace {

struct InputFile {
  dev_t device;
  ino_t inode;
  std::string path;
};

// Inputs of this process. Sweep workers inherit their parent's list through fork().
std::mutex g_inputs_mutex;
std::vector<InputFile> g_inputs;

void remember(const struct stat& st, const std::string& path) {
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  for (const InputFile& f : g_inputs) {
    if (f.device == st.st_dev && f.inode == st.st_ino) return;
  }
  g_inputs.push_back(InputFile{st.st_dev, st.st_ino, path});
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

namespace {

[[noreturn]] void fail_at(const std::string& path, const std::string& message) {
  throw Error(SourcePlace{path, 0, 0, ""}, message);
}

}  // namespace

std::string read_input_file(const std::string& path, std::string_view what, const Limit& max_bytes) {
  const std::string cannot = "cannot open " + std::string(what);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail_at(path, cannot + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail_at(path, cannot + ": it is " + file_type_name(st.st_mode) + ", not a regular file");
  if (st.st_size > max_bytes.value) {
    fail_at(path, std::string(what) + " is " + std::to_string(st.st_size) + " bytes, above the limit of " +
         std::to_string(max_bytes.value) + " (" + std::string(max_bytes.name) + ")");
  }
  // O_NONBLOCK: were the path swapped for a FIFO after stat, open must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail_at(path, cannot + ": " + std::strerror(errno));
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    fail_at(path, cannot + ": not a regular file");
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
  remember(opened, path);
  return text;
}

void note_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) remember(st, path);
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

}  // namespace lightcode
