// Parameter tables: a declared key is parsed by its type with its default; unknown keys are
// rejected with a suggestion; a key that is set but never read is reported at its file and
// line; a malformed default is found.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

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

TEST_CASE("a duration that does not fit a Time is an error at its key, in every table") {
  const ParamTable slo{"demo.slo",
                       "durations",
                       {Param::quantity("ttft", Dimension::duration).positive().doc("a target"),
                        Param::quantity("offset", Dimension::duration).signed_().doc("a fitted offset")}};
  auto error_in = [&](const std::string& yaml, const char* key) {
    try {
      ConfigUsage usage;
      Params(ConfigNode::parse(yaml, "slo.yaml"), slo, usage).quantity_if(key);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_in("ttft: 1e30 s\n", "ttft") ==
        "slo.yaml:1:7: ttft: a duration of 1e+30 s exceeds the representable 106 days at 1 ps");
  CHECK(error_in("ttft: 9223373 s\n", "ttft").find("slo.yaml:1:7: ttft: a duration of") == 0);
  CHECK(error_in("ttft: 9223372 s\n", "ttft").empty());  // the largest whole second that fits
  CHECK(error_in("offset: -1e30 s\n", "offset").find("slo.yaml:1:9: offset: a duration of") == 0);
  CHECK(error_in("offset: -3 ms\n", "offset").empty());  // signed offsets stay allowed
  // A sweep axis's value is checked as the key's own would be.
  const std::string axis = [&] {
    try {
      check_value(slo.params[0], ConfigNode::parse("[1e30 s]", "axis.yaml")[0]);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK(axis.find("axis.yaml:1:2: [0]: a duration of 1e+30 s exceeds") == 0);
}

TEST_CASE("an upper bound: at_most() refuses larger values at their key and the docs show it") {
  const ParamTable t{"demo.bounded",
                     "bounded",
                     {Param::real("cv").positive().at_most(100, "beyond it the mean is not seen").doc("spread"),
                      Param::quantity("capacity", Dimension::data).at_most(9.2e18).fallback("0 B").doc("bytes")}};
  auto read = [&](const std::string& yaml) {
    try {
      ConfigUsage usage;
      const Params p(ConfigNode::parse(yaml, "b.yaml"), t, usage);
      p.quantity_if("cv");
      p.quantity("capacity");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(read("cv: 100\ncapacity: 80 GB\n").empty());
  CHECK(read("cv: 100.5\n") == "b.yaml:1:5: cv: must be at most 100, got '100.5' (beyond it the mean is not seen)");
  CHECK(read("capacity: 1e27 B\n") == "b.yaml:1:11: capacity: must be at most 9200 PB, got '1e27 B'");
  CHECK(t.params[0].type_text() == "number > 0, <= 100");
  CHECK(t.params[1].type_text() == "data (B), >= 0, <= 9200 PB");
  std::vector<std::string> seen;
  CHECK(table_markdown(t, seen).find("| `cv` | number > 0, <= 100 |") != std::string::npos);
  CHECK(check_defaults(t).empty());
}

TEST_CASE("numbers are decimal: 0x10, hex floats, inf and nan are refused everywhere") {
  for (const char* text : {"0x10", "0X1p3", "-0x10", "inf", "nan", "infinity"}) {
    INFO(text);
    CHECK(error_of(std::string("clock: 1 GHz\noffset: ") + text + " s\n",
                   [](const Params& p) { p.quantity_if("offset"); })
              .find("demo.yaml:2:9: offset:") == 0);
    const ConfigNode n = ConfigNode::parse(std::string("v: '") + text + "'\n", "n.yaml").at("v");
    CHECK_THROWS_AS(n.as_double(), Error);
    CHECK_THROWS_AS(n.as_int(), Error);
    CHECK_THROWS_AS(parse_quantity(std::string(text) + " GHz", Dimension::frequency), Error);
  }
  CHECK_THROWS_WITH_AS(parse_quantity("0x10 GHz", Dimension::frequency),
                       "'0x10 GHz' is not a frequency: numbers are decimal (no 0x)", Error);
  const ParamTable reals{"demo.real", "a number", {Param::real("x").doc("x")}};
  ConfigUsage usage;
  CHECK_THROWS_WITH_AS(Params(ConfigNode::parse("x: 0x10\n", "r.yaml"), reals, usage).real("x"),
                       "r.yaml:1:4: x: '0x10' is not a number (a finite decimal)", Error);
  // Decimal spellings keep their values.
  for (const auto& [text, value] : std::initializer_list<std::pair<const char*, double>>{
           {"16", 16.0}, {"+1.5", 1.5}, {"-.5", -0.5}, {"5.", 5.0}, {"1e3", 1e3}, {"2.5E-3", 2.5e-3}}) {
    CHECK(ConfigNode::parse(std::string("v: '") + text + "'\n", "n.yaml").at("v").as_double() == value);
    CHECK(parse_quantity(std::string(text) + " Hz", Dimension::frequency) == value);
  }
  CHECK(parse_quantity("5.GHz", Dimension::frequency) == 5e9);
}
