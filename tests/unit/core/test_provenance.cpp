// What results files record about their inputs, and the lock on an output: SHA-256 against
// the FIPS 180-2 vectors, the record of files read (and their digests) since a mark, and
// OutputLock refusing a second holder until the first lets go.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/core/sha256.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/files.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;
namespace fs = std::filesystem;

using test::error_of;
using test::Scratch;

TEST_CASE("SHA-256 gives the FIPS 180-2 test vectors, however the bytes are split") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";  // 448 bits
  CHECK(sha256_hex(two_blocks) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1000000, 'a');
  CHECK(sha256_hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // 55, 56 and 64 bytes: the padding fits in the block, spills into a second, or takes one.
  CHECK(sha256_hex(std::string(55, 'a')) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(56, 'a')) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(sha256_hex(std::string(64, 'a')) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  for (const size_t split : {size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}}) {
    CAPTURE(split);
    Sha256 h;
    for (size_t at = 0; at < million.size(); at += split) h.update(std::string_view(million).substr(at, split));
    CHECK(h.finish_hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
}

TEST_CASE("the files read since a mark, each once with the digest of the bytes last read") {
  const Scratch s;
  const std::string a = s.file("a.yaml", "a: 1\n"), b = s.file("b.yaml", "b: 2\n");
  read_input_file(a, "config file", limits::kConfigFileBytes);  // before the mark
  const uint64_t mark = input_mark();
  CHECK(inputs_read_since(mark).empty());
  read_input_file(b, "config file", limits::kConfigFileBytes);
  read_input_file(s.dir + "/./b.yaml", "config file", limits::kConfigFileBytes);  // the same file, spelled otherwise
  std::vector<RecordedInput> read = inputs_read_since(mark);
  REQUIRE(read.size() == 1);
  CHECK(read[0].path == b);
  CHECK(read[0].sha256 == sha256_hex("b: 2\n"));
  // Read again after the mark, and edited in place: listed, with what was read last.
  std::ofstream(a) << "a: 3\n";
  read_input_file(a, "config file", limits::kConfigFileBytes);
  read = inputs_read_since(mark);
  REQUIRE(read.size() == 2);
  CHECK(read[0].path == a);  // sorted by path
  CHECK(read[0].sha256 == sha256_hex("a: 3\n"));
  // A file noted rather than read gets its digest too; a FIFO is noted without blocking.
  const std::string noted = s.file("c.h5", "not really HDF5");
  const std::string fifo = s.path("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const uint64_t second = input_mark();
  note_input_file(noted);
  note_input_file(fifo);
  read = inputs_read_since(second);
  REQUIRE(read.size() == 2);
  CHECK(read[0].sha256 == sha256_hex("not really HDF5"));
  CHECK(read[1].path == fifo);
  CHECK(read[1].sha256.empty());
}

TEST_CASE("check_input_file refuses a FIFO or a directory without opening it") {
  const Scratch s;
  const std::string fifo = s.path("results.h5");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { check_input_file(fifo, "results file"); }) ==
        fifo + ": cannot open results file: it is a FIFO, not a regular file");
  CHECK(error_of([&] { check_input_file(s.dir, "results file"); }) ==
        s.dir + ": cannot open results file: it is a directory, not a regular file");
  CHECK(error_of([&] { check_input_file(s.path("none.h5"), "results file"); }) ==
        s.path("none.h5") + ": cannot open results file: No such file or directory");
  CHECK(error_of([&] { check_input_file(s.file("ok.h5", "x"), "results file"); }).empty());
}

TEST_CASE("an output lock refuses a second holder, naming the first, until it lets go") {
  const Scratch s;
  const std::string out = s.path("sub/results.h5");
  {
    const OutputLock first(out, "sweep x.yaml");
    CHECK(first.lock_path() == out + ".lock");
    const std::string holder = test::slurp(out + ".lock");
    CHECK(holder.find("pid " + std::to_string(::getpid()) + "\nstarted ") == 0);
    CHECK(holder.find("\ncommand sweep x.yaml\n") != std::string::npos);
    const std::string refused = error_of([&] { OutputLock second(out, "run y.yaml"); });
    INFO(refused);
    CHECK(refused.find(out + ": another LightCode process is writing it (pid " + std::to_string(::getpid()) +
                       ", started ") == 0);
    CHECK(refused.find(": lightcode sweep x.yaml); wait for it to end, or write elsewhere") != std::string::npos);
    // A forked worker lets go of its copy: the lock stays its parent's, and ends with it.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      release_inherited_output_locks();
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(!error_of([&] { OutputLock second(out, "run y.yaml"); }).empty());
  }
  CHECK_FALSE(fs::exists(out + ".lock"));  // removed by its holder
  CHECK(error_of([&] { OutputLock again(out, "run y.yaml"); }).empty());
  // A lock file left behind (its holder killed) holds nobody.
  std::ofstream(out + ".lock") << "pid 1\nstarted 2000-01-01T00:00:00Z\ncommand sweep old.yaml\n";
  CHECK(error_of([&] { OutputLock again(out, "run y.yaml"); }).empty());
  // A lock path that is not a regular file is an error, not a hang.
  const std::string fifo_out = s.path("fifo.h5");
  REQUIRE(::mkfifo((fifo_out + ".lock").c_str(), 0600) == 0);
  CHECK(error_of([&] { OutputLock l(fifo_out, "run"); }) ==
        fifo_out + ".lock: cannot lock '" + fifo_out + "' here: it is a FIFO, not a regular file");
}
