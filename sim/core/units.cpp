#include "sim/core/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/core/error.hpp"
#include "sim/core/numbers.hpp"

namespace lightcode {
namespace {

struct UnitSpelling {
  std::string_view text;
  double factor;  // multiply the prefixed number by this to get SI base units
};

struct DimensionInfo {
  std::string_view name;
  std::string_view base;  // printed by format_quantity
  std::array<UnitSpelling, 4> units;
  // How often the SI prefix applies: 1, 2 for an area (1 um^2 = 1e-12 m^2), 0 for the
  // logarithmic dB and dBm, where a prefix means nothing.
  int prefix_power = 1;
};

// Longest spellings first so "bit/s" is tried before "s".
constexpr std::array<DimensionInfo, 15> kDimensions{{
    {"frequency", "Hz", {{{"Hz", 1.0}}}},
    {"duration", "s", {{{"s", 1.0}}}},
    {"energy", "J", {{{"J", 1.0}}}},
    {"power", "W", {{{"W", 1.0}}}},
    {"data", "B", {{{"bit", 0.125}, {"B", 1.0}, {"b", 0.125}}}},
    {"bandwidth", "B/s", {{{"bit/s", 0.125}, {"B/s", 1.0}, {"b/s", 0.125}}}},
    {"flop rate", "FLOP/s", {{{"FLOP/s", 1.0}, {"FLOPS", 1.0}}}},
    {"MAC rate", "MAC/s", {{{"MAC/s", 1.0}}}},
    {"sample rate", "S/s", {{{"Sa/s", 1.0}, {"S/s", 1.0}}}},
    {"energy per bit", "J/bit", {{{"J/bit", 1.0}, {"J/b", 1.0}, {"J/B", 0.125}}}},
    {"length", "m", {{{"m", 1.0}}}},
    {"area", "m^2", {{{"m^2", 1.0}, {"m2", 1.0}}}, 2},
    {"decibel ratio", "dB", {{{"dB", 1.0}}}, 0},
    {"power level", "dBm", {{{"dBm", 1.0}}}, 0},
    {"request rate", "req/s", {{{"req/s", 1.0}}}},
}};

struct Prefix {
  std::string_view text;
  double factor;
};
constexpr std::array<Prefix, 16> kPrefixes{{{"", 1.0},
                                            {"f", 1e-15},
                                            {"p", 1e-12},
                                            {"n", 1e-9},
                                            {"u", 1e-6},
                                            {"\xC2\xB5", 1e-6},  // µ
                                            {"m", 1e-3},
                                            {"k", 1e3},
                                            {"K", 1e3},
                                            {"M", 1e6},
                                            {"G", 1e9},
                                            {"T", 1e12},
                                            {"P", 1e15},
                                            {"Ki", 1024.0},
                                            {"Mi", 1024.0 * 1024.0},
                                            {"Gi", 1024.0 * 1024.0 * 1024.0}}};

const DimensionInfo& info(Dimension d) { return kDimensions[static_cast<size_t>(d)]; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view dimension_name(Dimension d) { return info(d).name; }

std::string_view dimension_base_unit(Dimension d) { return info(d).base; }

double parse_quantity(std::string_view text, Dimension d) {
  const std::string_view s = trim(text);
  const std::string quoted = excerpt(std::string(s));
  // Decimal only: strtod alone would read "0x10 GHz" as 16 GHz (sim/core/numbers.hpp).
  const size_t digits = decimal_prefix(s);
  const std::optional<double> parsed = parse_decimal(s.substr(0, digits));
  const std::string_view lead = s.substr(0, digits);
  if ((lead == "0" || lead == "+0" || lead == "-0") && digits < s.size() && (s[digits] == 'x' || s[digits] == 'X')) {
    throw Error("'" + quoted + "' is not a " + std::string(info(d).name) + ": numbers are decimal (no 0x)");
  }
  if (digits > 0 && !parsed) {
    throw Error("'" + quoted + "' is too large to represent (above 1.8e308 " + std::string(info(d).base) + ")");
  }
  if (!parsed) {
    throw Error("'" + quoted + "' is not a " + std::string(info(d).name) +
                " (expected a decimal number and a unit, e.g. \"1.5 G" + std::string(info(d).base) +
                "\")");
  }
  const double number = *parsed;
  const std::string_view unit = trim(s.substr(digits));
  if (unit.empty()) {
    throw Error("'" + quoted + "' has no unit (expected a " + std::string(info(d).name) + " in " +
                std::string(info(d).base) + ", e.g. \"" + quoted + " G" + std::string(info(d).base) +
                "\")");
  }
  for (const UnitSpelling& u : info(d).units) {
    if (u.text.empty() || unit.size() < u.text.size()) continue;
    if (unit.substr(unit.size() - u.text.size()) != u.text) continue;
    const std::string_view prefix = unit.substr(0, unit.size() - u.text.size());
    for (const Prefix& p : kPrefixes) {
      if (p.text != prefix) continue;
      if (info(d).prefix_power == 0 && !p.text.empty()) break;
      const double value = number * std::pow(p.factor, info(d).prefix_power) * u.factor;
      if (!std::isfinite(value)) {
        throw Error("'" + quoted + "' is too large to represent (above 1.8e308 " + std::string(info(d).base) + ")");
      }
      return value;
    }
  }
  std::string accepted;
  for (const UnitSpelling& u : info(d).units) {
    if (u.text.empty()) continue;
    accepted += (accepted.empty() ? "" : ", ") + std::string(u.text);
  }
  throw Error("'" + quoted + "': unit '" + excerpt(std::string(unit)) + "' is not a " +
              std::string(info(d).name) + " unit (expected a prefix f p n u m k M G T P and one of " +
              accepted + ")");
}

std::string format_quantity(double value_si, Dimension d) {
  static constexpr std::array<Prefix, 9> kEng{{{"P", 1e15},
                                               {"T", 1e12},
                                               {"G", 1e9},
                                               {"M", 1e6},
                                               {"k", 1e3},
                                               {"", 1.0},
                                               {"m", 1e-3},
                                               {"u", 1e-6},
                                               {"n", 1e-9}}};
  char num[64];
  const int power = info(d).prefix_power;
  if (power == 0) {
    std::snprintf(num, sizeof num, "%.4g", value_si);
    return std::string(num) + " " + std::string(info(d).base);
  }
  const double mag = std::fabs(value_si);
  Prefix chosen = value_si == 0.0 ? Prefix{"", 1.0} : Prefix{"p", 1e-12};
  if (value_si != 0.0) {
    for (const Prefix& p : kEng) {
      if (mag >= std::pow(p.factor, power) * 0.9999999) {
        chosen = p;
        break;
      }
    }
  }
  std::snprintf(num, sizeof num, "%.4g", value_si / std::pow(chosen.factor, power));
  return std::string(num) + " " + std::string(chosen.text) + std::string(info(d).base);
}

}  // namespace lightcode
