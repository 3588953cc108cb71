// Quantities with units, as configs write them.
#include <doctest/doctest.h>

#include "sim/core/error.hpp"
#include "sim/core/quantity.hpp"
#include "sim/core/units.hpp"

using namespace lightcode;

TEST_CASE("quantities parse to SI base units") {
  CHECK(parse_quantity("9.7 GHz", Dimension::frequency) == doctest::Approx(9.7e9));
  CHECK(parse_quantity("3.35 TB/s", Dimension::bandwidth) == doctest::Approx(3.35e12));
  CHECK(parse_quantity("0.04 pJ", Dimension::energy) == doctest::Approx(0.04e-12));
  CHECK(parse_quantity("10 ns", Dimension::duration) == doctest::Approx(10e-9));
  CHECK(parse_quantity("50 MB", Dimension::data) == doctest::Approx(50e6));
  CHECK(parse_quantity("80 GiB", Dimension::data) == doctest::Approx(80.0 * 1024 * 1024 * 1024));
  CHECK(parse_quantity("8 bit", Dimension::data) == doctest::Approx(1.0));
  CHECK(parse_quantity("400 Gbit/s", Dimension::bandwidth) == doctest::Approx(50e9));
  CHECK(parse_quantity("989 TFLOP/s", Dimension::flop_rate) == doctest::Approx(989e12));
  CHECK(parse_quantity("700 W", Dimension::power) == doctest::Approx(700.0));
  CHECK(parse_quantity("1.2 pJ/bit", Dimension::energy_per_bit) == doctest::Approx(1.2e-12));
  CHECK(parse_quantity("10 GS/s", Dimension::sample_rate) == doctest::Approx(10e9));
}

TEST_CASE("device quantities: femto, lengths, squared-prefix areas, dB and dBm") {
  CHECK(parse_quantity("450 fJ/bit", Dimension::energy_per_bit) == doctest::Approx(450e-15));
  CHECK(parse_quantity("4.8 um", Dimension::length) == doctest::Approx(4.8e-6));
  CHECK(parse_quantity("2850 um^2", Dimension::area) == doctest::Approx(2850e-12));
  CHECK(parse_quantity("14.35 mm^2", Dimension::area) == doctest::Approx(14.35e-6));
  CHECK(parse_quantity("1.2 dB", Dimension::decibel) == doctest::Approx(1.2));
  CHECK(parse_quantity("-25 dBm", Dimension::power_level) == doctest::Approx(-25.0));
  // A prefix on a logarithmic unit means nothing: an error, not a silent factor.
  CHECK_THROWS_WITH_AS(parse_quantity("3 mdB", Dimension::decibel), doctest::Contains("not a decibel ratio unit"),
                       Error);
  CHECK(format_quantity(60.3e-6, Dimension::area) == "60.3 mm^2");
  CHECK(format_quantity(0.33, Dimension::decibel) == "0.33 dB");
}

TEST_CASE("a missing or wrong unit is an error that says what was expected") {
  CHECK_THROWS_WITH_AS(parse_quantity("9.7", Dimension::frequency), doctest::Contains("has no unit"), Error);
  CHECK_THROWS_WITH_AS(parse_quantity("9.7 GB", Dimension::frequency),
                       doctest::Contains("is not a frequency unit"), Error);
  CHECK_THROWS_WITH_AS(parse_quantity("fast", Dimension::frequency), doctest::Contains("not a frequency"),
                       Error);
}

TEST_CASE("time is integer picoseconds, rounded once") {
  CHECK(Time::from_seconds(1.0 / 6e9).count_ps() == 167);
  CHECK(Time::from_seconds(2.98404).count_ps() == 2984040000000);
  CHECK((Time::ps(5) + Time::ps(7)).count_ps() == 12);
  CHECK(Energy::from_joules(1e-12).picojoules() == doctest::Approx(1.0));
}

TEST_CASE("format_quantity picks an engineering prefix") {
  CHECK(format_quantity(9.7e9, Dimension::frequency) == "9.7 GHz");
  CHECK(format_quantity(3.35e12, Dimension::bandwidth) == "3.35 TB/s");
}
