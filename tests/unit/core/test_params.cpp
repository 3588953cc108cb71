// Parameter tables: a declared key is parsed by its type with its default; unknown keys are
// rejected with a suggestion; a key that is set but never read is reported at its file and
// line; a malformed default is found.
#include <doctest/doctest.h>

#include <string>

#include "sim/core/error.hpp"
#include "sim/core/params.hpp"

using namespace lightcode;

namespace {

const ParamTable& inner() {
  static const ParamTable t{"demo.inner",
                            "a nested table",
                            {
                                Param::quantity("rate", Dimension::sample_rate)
                                    .fallback("0 S/s")
                                    .doc("samples per second"),
                            }};
  return t;
}

const ParamTable& demo() {
  static const ParamTable t{
      "demo",
      "a demo table",
      {
          Param::meta("name").doc("display name"),
          Param::quantity("clock", Dimension::frequency).positive().required().doc("the clock"),
          Param::quantity("energy", Dimension::energy).fallback("1 pJ").doc("per op"),
          Param::quantity("offset", Dimension::duration).signed_().doc("optional, may be negative"),
          Param::count("cores", limits::kUnitCount).fallback("1").doc("cores"),
          Param::choice("level", {"hbm", "sram"}).fallback("sram").doc("which memory"),
          Param::boolean("on").fallback("true").doc("a switch"),
          Param::table("dac", inner()).doc("a converter"),
      }};
  return t;
}

std::string error_of(const std::string& yaml, void (*read)(const Params&)) {
  try {
    ConfigUsage usage;
    read(Params(ConfigNode::parse(yaml, "demo.yaml"), demo(), usage));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "typed reads: values in SI units, defaults parsed by the same parser, optional keys absent") {
  ConfigUsage usage;
  const Params p(ConfigNode::parse("clock: 2 GHz\noffset: -3 ns\nlevel: hbm\n", "demo.yaml"),
                 demo(), usage);
  CHECK(p.quantity("clock") == doctest::Approx(2e9));
  CHECK(p.quantity("energy") == doctest::Approx(1e-12));  // the default "1 pJ"
  CHECK(*p.quantity_if("offset") == doctest::Approx(-3e-9));
  CHECK(p.count("cores") == 1);
  CHECK(p.choice("level") == "hbm");
  CHECK(p.boolean("on"));
  CHECK_FALSE(p.table_if("dac").has_value());
  ConfigUsage other;
  CHECK_FALSE(Params(ConfigNode::parse("clock: 1 Hz\n", "d.yaml"), demo(), other)
                  .quantity_if("offset")
                  .has_value());
}

TEST_CASE("bad values name file, line, key and what was expected") {
  CHECK(error_of("energy: 1 pJ\n", [](const Params& p) {
          p.quantity("clock");
        }).find("missing key 'clock'") != std::string::npos);
  const std::string neg = error_of("clock: -1 GHz\n", [](const Params& p) { p.quantity("clock"); });
  CHECK(neg.find("demo.yaml:1:") == 0);
  CHECK(neg.find("must be positive") != std::string::npos);
  CHECK(error_of("clock: 1 GHz\nlevel: dram\n", [](const Params& p) {
          p.choice("level");
        }).find("expected one of hbm, sram, got 'dram'") != std::string::npos);
  CHECK(error_of("clock: 1 GHz\ncores: 0\n", [](const Params& p) {
          p.count("cores");
        }).find("must be an integer from 1 to") != std::string::npos);
  const std::string typo = error_of("clokc: 1 GHz\n", [](const Params&) {});
  CHECK(typo.find("unknown key 'clokc' (did you mean 'clock'?)") != std::string::npos);
}

TEST_CASE("a key set but never read is reported at its place, informational keys never are") {
  ConfigUsage usage;
  const ConfigNode node =
      ConfigNode::parse("name: x\nclock: 1 GHz\nenergy: 2 pJ\ndac: {rate: 1 GS/s}\n", "demo.yaml");
  const Params p(node, demo(), usage);
  p.quantity("clock");
  p.quantity("energy");
  const auto dac = p.table_if("dac");  // the table is opened, its key not read
  try {
    check_all_read(node, demo(), usage, "the demo model");
    FAIL("expected an unread-key error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("demo.yaml:4:") == 0);
    CHECK(std::string(e.what()).find("key 'rate' is set but not read by the demo model") !=
          std::string::npos);
  }
  dac->quantity("rate");
  CHECK_NOTHROW(check_all_read(node, demo(), usage, "the demo model"));
}

TEST_CASE("a malformed default is found by check_defaults") {
  ParamTable broken{
      "broken", "", {Param::quantity("clock", Dimension::frequency).fallback("3 GB").doc("x")}};
  CHECK(check_defaults(broken).size() == 1);
  CHECK(check_defaults(demo()).empty());
}
