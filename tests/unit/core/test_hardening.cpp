// Inputs and outputs that once crashed, hung or destroyed a file: each is now a clear
// lightcode::Error, checked before anything is allocated, read or overwritten.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/checked.hpp"
#include "sim/core/config.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/named_registry.hpp"
#include "sim/core/params.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/quantity.hpp"
#include "sim/core/units.hpp"
#include "tests/support/errors.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;
namespace fs = std::filesystem;

using test::error_of;
using test::Scratch;

TEST_CASE("a YAML alias bomb stops at the value budget, quickly") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    const char prev = static_cast<char>(c - 1);
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int k = 0; k < 9; ++k) bomb += std::string(k ? ", *" : "*") + prev;
    bomb += "]\n";
  }
  const std::string msg = error_of([&] { ConfigNode::parse(bomb, "bomb.yaml"); });
  CHECK(msg.find("bomb.yaml:") == 0);
  CHECK(msg.find("more than 250000 values (config_values; YAML aliases expand)") != std::string::npos);
}

TEST_CASE("nesting deeper than the limit is an error, not a stack overflow") {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "- ";
  deep += "x\n";
  CHECK(error_of([&] { ConfigNode::parse(deep, "deep.yaml"); }).find("nested more than 64 levels") !=
        std::string::npos);
}

TEST_CASE("a device, a FIFO or a directory is not read as a config") {
  Scratch s;
  CHECK(error_of([] { ConfigNode::load_file("/dev/zero"); }) ==
        "/dev/zero: cannot open config file: it is a character device, not a regular file");
  CHECK(error_of([&] { ConfigNode::load_file(s.dir); }).find("it is a directory, not a regular file") !=
        std::string::npos);
  const std::string fifo = s.dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { ConfigNode::load_file(fifo); }).find("it is a FIFO, not a regular file") != std::string::npos);
}

TEST_CASE("`from:` naming /dev/zero or a directory is an error at the `from:` key") {
  Scratch s;
  const std::string zero = s.file("zero.yaml", "cores: 4\nfrom: /dev/zero\n");
  CHECK(error_of([&] { ConfigNode::load_file(zero); }) ==
        zero + ":2:7: from: /dev/zero: cannot open config file: it is a character device, not a regular file");
  const std::string dir = s.file("dir.yaml", "from: " + s.dir + "\n");
  CHECK(error_of([&] { ConfigNode::load_file(dir); }).find(": it is a directory, not a regular file") !=
        std::string::npos);
}

TEST_CASE("a file above its size limit is refused before it is read") {
  Scratch s;
  const std::string big = s.dir + "/big.yaml";
  REQUIRE(::truncate(s.file("big.yaml", "").c_str(), limits::kConfigFileBytes.value + 1) == 0);
  CHECK(error_of([&] { ConfigNode::load_file(big); }).find("is 16777217 bytes, above the limit of 16777216") !=
        std::string::npos);
}

TEST_CASE("a quantity too large for a double is rejected at load (no inf or NaN downstream)") {
  CHECK(error_of([] { parse_quantity("1e300 PHz", Dimension::frequency); }) ==
        "'1e300 PHz' is too large to represent (above 1.8e308 Hz)");
  CHECK(error_of([] { parse_quantity("inf GHz", Dimension::frequency); }).find("is not a frequency") != std::string::npos);
  const ConfigNode c = ConfigNode::parse("clock: 1e300 PHz\n", "cpu.yaml");
  CHECK(error_of([&] { c.positive_quantity("clock", Dimension::frequency); }).find("cpu.yaml:1:8: clock:") == 0);
}

TEST_CASE("times beyond 106 days at 1 ps, and sums past int64, are errors, not wraps") {
  CHECK(error_of([] { Time::from_seconds(1e7); }) == "a duration of 1e+07 s exceeds the representable 106 days at 1 ps");
  CHECK(error_of([] { Time::from_seconds(std::nan("")); }) == "a duration is not a number (NaN)");
  CHECK(error_of([] { Time::from_seconds(-1.0); }) == "a duration is negative (-1 s)");
  CHECK(Time::from_seconds(9.2e6).count_ps() == 9200000000000000000);
  CHECK(error_of([] { Time::ps(INT64_MAX) + Time::ps(1); }) == "a sum of times exceeds the representable 106 days at 1 ps");
  CHECK(error_of([] { add_ps(INT64_MAX - 5, 6, "the makespan"); }) ==
        "the makespan exceeds the representable 106 days at 1 ps");
  CHECK(error_of([] { checked_mul(int64_t{1} << 62, 4, "the bytes"); }).find("the bytes exceeds the representable") == 0);
  CHECK(error_of([] { check_energy((Energy::pj(1e308) + Energy::pj(1e308)).picojoules(), "the total"); })
            .find("the total: energy inf pJ is not representable") == 0);
  CHECK(error_of([] { Energy::from_joules(1e300 * 1e300); }) ==
        "an energy of inf pJ is not representable as a finite double (check energy and power parameters)");
}

TEST_CASE("outputs: never a FIFO, a device, a directory or an input of the run") {
  Scratch s;
  const std::string fifo = s.dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { write_output_file(fifo, "x"); }) ==
        fifo + ": refusing to write an output here: it is a FIFO, not a regular file");
  struct stat st {};
  REQUIRE(::stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));  // still a FIFO
  CHECK(error_of([] { check_output_path("/dev/null"); }).find("it is a character device") != std::string::npos);
  CHECK(error_of([&] { write_output_file(s.dir, "x"); }).find("it is a directory") != std::string::npos);
  const std::string input = s.file("input.yaml", "a: 1\n");
  ConfigNode::load_file(input);  // now an input of this process
  CHECK(error_of([&] { write_output_file(input, "b: 2\n"); }) ==
        input + ": refusing to overwrite '" + input + "', an input of this run; choose another output path");
  std::ifstream in(input);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "a: 1\n");
  CHECK(error_of([&] { write_output_file(s.dir + "/" + std::string(300, 'n') + ".h5", "x"); })
            .find("output file name is 303 bytes, above the limit of 200 (output_name_bytes)") != std::string::npos);
}

TEST_CASE("a written output replaces the file atomically and leaves no temporary") {
  Scratch s;
  const std::string out = s.dir + "/out.txt";
  write_output_file(out, "first");
  write_output_file(out, "second");
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "second");
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(s.dir)) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 1);
}

TEST_CASE("temporaries of a process that no longer exists are removed by the next write") {
  Scratch s;
  // A pid that cannot be running: one past the kernel's maximum.
  const std::string stale = s.file(".out.txt.lightcode-99999999-0.tmp", "partial");
  const std::string alive = s.file(".out.txt.lightcode-" + std::to_string(::getpid()) + "-7.tmp", "in progress");
  write_output_file(s.dir + "/out.txt", "done");
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(alive));  // its writer still runs: left alone
}

TEST_CASE("the limits table is documented in docs/CONFIG.md, as generated") {
  std::ifstream in(std::string(LIGHTCODE_TEST_SOURCE_DIR) + "/docs/CONFIG.md");
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("regenerate with: build/lightcode limits --markdown");
  CHECK(doc.find(limits_markdown()) != std::string::npos);
}

TEST_CASE("an error that quotes a long value quotes an excerpt of it") {
  struct Named {
    std::string_view name;
  };
  const std::vector<Named> registry{{"list"}, {"lightcode"}};
  const ParamTable table{"demo.excerpt",
                         "every kind of value",
                         {Param::quantity("clock", Dimension::frequency).positive().doc("q"),
                          Param::real("x").positive().at_most(1).doc("r"),
                          Param::fraction("f").doc("f"),
                          Param::count("n", limits::kUnitCount).doc("c"),
                          Param::integer("i").doc("i"),
                          Param::choice("c", {"a", "b"}).doc("c"),
                          Param::boolean("b").fallback("true").doc("b")}};
  const std::string huge(5 << 20, '9');
  const std::string big(256 << 10, '9');  // as long as a message needs: each is quoted as 64 characters
  for (const std::string& value : {big, "-" + big, "1" + std::string(256 << 10, ' ') + "x"}) {
    for (const char* key : {"clock", "x", "f", "n", "i", "c", "b"}) {
      const std::string e = error_of([&] {
        ConfigUsage usage;
        const Params p(ConfigNode::parse(std::string(key) + ": '" + value + "'\n", "big.yaml"), table, usage);
        const Param& row = *table.find(key);
        if (row.kind == ParamKind::quantity || row.kind == ParamKind::real || row.kind == ParamKind::fraction) {
          p.quantity_if(key);
        } else if (row.kind == ParamKind::choice) {
          p.text_if(key);
        } else if (row.kind == ParamKind::boolean) {
          p.boolean(key);
        } else {
          p.count_if(key);
        }
      });
      INFO(std::string(key));
      CHECK_FALSE(e.empty());
      CHECK(e.size() < 400);
    }
  }
  CHECK(error_of([&] { named_in(registry, huge, "scheduler"); }).size() < 200);
  CHECK(error_of([&] { parse_quantity(huge + " GHz", Dimension::frequency); }).size() < 300);
  CHECK(error_of([&] { ConfigNode::parse("v: " + huge + "x\n", "v.yaml").at("v").as_double(); }).size() < 200);
  CHECK(error_of([&] { ConfigNode::parse("v: " + huge + "\n", "v.yaml").at("v").as_int(); }).size() < 200);
  const std::string key(1000, 'k');
  CHECK(error_of([&] { ConfigUsage u; Params(ConfigNode::parse(key + ": 1\n", "k.yaml"), table, u); }).size() < 400);
}
