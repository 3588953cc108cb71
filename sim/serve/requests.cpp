#include "sim/serve/requests.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::serve {
namespace {

constexpr double kPi = 3.14159265358979323846;

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

std::string trim(std::string s) {
  const size_t a = s.find_first_not_of(" \t\r");
  const size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

}  // namespace

Rng::Rng(uint64_t seed) {
  for (uint64_t& x : s_) x = splitmix64(seed);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() {
  return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53;
}

double Rng::normal() {
  // Two draws in this order: the operands of `*` are unsequenced, so one expression calling
  // uniform() twice could give other numbers under another compiler.
  const double u1 = uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

std::vector<Request> parse_request_trace(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  int column[3] = {-1, -1, -1};  // arrival_s, prompt_tokens, output_tokens
  const char* names[3] = {"arrival_s", "prompt_tokens", "output_tokens"};
  bool header = false;
  std::vector<Request> out;
  auto fail = [&](const std::string& m) { throw Error(SourcePlace{file, number, 0, ""}, m); };
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<std::string> c = cells(t);
    if (!header) {
      for (size_t k = 0; k < c.size(); ++k) {
        const auto* it = std::find_if(std::begin(names), std::end(names),
                                      [&](const char* n) { return c[k] == n; });
        if (it == std::end(names))
          fail("unknown column '" + c[k] + "' (expected arrival_s, prompt_tokens, output_tokens)");
        int& slot = column[it - std::begin(names)];
        if (slot >= 0) fail("column '" + c[k] + "' appears twice");
        slot = static_cast<int>(k);
      }
      for (int k = 0; k < 3; ++k) {
        if (column[k] < 0) fail(std::string("missing column '") + names[k] + "'");
      }
      header = true;
      continue;
    }
    if (c.size() != 3)
      fail("expected 3 cells (arrival_s, prompt_tokens, output_tokens), got " +
           std::to_string(c.size()));
    const std::string& a = c[static_cast<size_t>(column[0])];
    char* end = nullptr;
    const double arrival = std::strtod(a.c_str(), &end);
    if (a.empty() || *end != '\0' || !std::isfinite(arrival) || arrival < 0.0 || arrival > 1e9) {
      fail("arrival_s: expected seconds >= 0, got '" + a + "'");
    }
    Request r;
    r.id = static_cast<int64_t>(out.size());
    r.arrival = Time::from_seconds(arrival);
    if (!out.empty() && r.arrival < out.back().arrival) {
      fail("arrival_s " + a + " is before the previous request's: rows must be in arrival order");
    }
    for (int k = 1; k < 3; ++k) {
      const std::string& v = c[static_cast<size_t>(column[k])];
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1 || n > limits::kSequenceLength.value) {
        fail(std::string(names[k]) + ": expected an integer 1.." +
             std::to_string(limits::kSequenceLength.value) + ", got '" + v + "'");
      }
      (k == 1 ? r.prompt_tokens : r.output_tokens) = n;
    }
    out.push_back(r);
  }
  if (!header)
    throw Error(SourcePlace{file, 0, 0, ""},
                "no header row (arrival_s, prompt_tokens, output_tokens)");
  return out;
}

std::vector<Request> load_request_trace(const std::string& path) {
  return parse_request_trace(read_input_file(path, "request trace", limits::kCsvFileBytes), path);
}

}  // namespace lightcode::serve
