#include "sim/dataset/worker.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/core/error.hpp"
#include "sim/core/output_lock.hpp"

namespace lightcode::dataset {
namespace {

constexpr char kMagic[8] = {'L', 'C', 'D', 'S', 'R', 'E', 'C', '1'};

void put(std::string& out, uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

uint64_t get(const std::string& in, size_t& at) {
  if (at + sizeof(uint64_t) > in.size()) throw Error("a dataset records file ends early");
  uint64_t v = 0;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

[[noreturn]] void child(const sweep::PointSpec& point, size_t index, const RecordContext& context,
                        const std::string& path, pid_t parent) {
  forget_inherited_cleanup();
  release_inherited_output_locks();  // the parent's lock is the parent's
  // A parent killed outright takes its workers along.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(3);
  if (const char* crash = std::getenv("LIGHTCODE_FAULT_CRASH_POINT"); crash && point.id == crash)
    ::raise(SIGKILL);
  try {
    const PointRecords records = point_records(point, index, context);
    write_output_file(path, serialise(records), /*durable=*/false, /*clean_stale=*/false);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightcode: worker for point %s: %s\n", point.id.c_str(), e.what());
    std::fflush(stderr);
    ::_exit(3);
  }
  std::fflush(stdout);
  ::_exit(0);  // no static destructors: SystemC is not torn down twice, the parent's HDF5 file
               // untouched
}

}  // namespace

std::string serialise(const PointRecords& records) {
  std::string out(kMagic, sizeof kMagic);
  put(out, static_cast<uint64_t>(kSchemaVersion));
  put(out, records.point);
  put(out, records.ok ? 1 : 0);
  for (const Rows& rows : records.tables) {
    put(out, rows.size());
    put(out, rows.schema().row_size);
    out.append(reinterpret_cast<const char*>(rows.bytes().data()), rows.bytes().size());
  }
  return out;
}

PointRecords deserialise(const std::string& in) {
  if (in.size() < sizeof kMagic || std::memcmp(in.data(), kMagic, sizeof kMagic) != 0) {
    throw Error("not a dataset records file");
  }
  size_t at = sizeof kMagic;
  if (get(in, at) != static_cast<uint64_t>(kSchemaVersion))
    throw Error("a dataset records file of another schema");
  PointRecords records;
  records.point = get(in, at);
  records.ok = get(in, at) != 0;
  for (Rows& rows : records.tables) {
    const uint64_t count = get(in, at), size = get(in, at);
    if (size != rows.schema().row_size || count > (in.size() - at) / size) {
      throw Error("a dataset records file whose table " + std::string(rows.schema().name) +
                  " is malformed");
    }
    rows.assign(reinterpret_cast<const unsigned char*>(in.data() + at), count);
    at += count * size;
  }
  if (at != in.size()) throw Error("a dataset records file with bytes past its tables");
  return records;
}

RecordsWorker::RecordsWorker(const sweep::PointSpec& point, size_t index,
                             const RecordContext& context)
    : point_(&point),
      index_(index),
      context_(&context),
      dir_(std::make_unique<TemporaryDirectory>()) {
  path_ = dir_->file("records.bin");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) throw Error(std::string("cannot start a worker process: ") + std::strerror(errno));
  if (pid_ == 0) child(point, index, context, path_, parent);
  register_child_process(pid_);  // a SIGTERM of the parent reaches it
}

RecordsWorker::~RecordsWorker() {
  if (pid_ > 0 && !done_) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    unregister_child_process(pid_);
  }
}

bool RecordsWorker::finished() {
  if (done_) return true;
  const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
  if (r == pid_ || (r < 0 && errno != EINTR)) {
    done_ = true;
    unregister_child_process(pid_);
  }
  return done_;
}

PointRecords RecordsWorker::take() {
  while (!finished()) ::usleep(1000);
  if (WIFEXITED(status_) && WEXITSTATUS(status_) == 0) {
    try {
      std::ifstream in(path_, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      PointRecords records = deserialise(bytes);
      if (records.point == index_) return records;
    } catch (const Error&) {
      // told below as a worker that left no records
    }
  }
  const std::string why = WIFSIGNALED(status_)
                              ? "worker crashed (signal " + std::to_string(WTERMSIG(status_)) +
                                    ": " + strsignal(WTERMSIG(status_)) + ")"
                              : "worker exited with status " +
                                    std::to_string(WIFEXITED(status_) ? WEXITSTATUS(status_) : -1) +
                                    " and no records";
  return failed_records(*point_, index_, *context_, why);
}

}  // namespace lightcode::dataset
