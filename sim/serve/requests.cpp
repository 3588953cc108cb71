#include "sim/serve/requests.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/numbers.hpp"

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

constexpr std::string_view kBlank = " \t\r";

// One cell of a trace row: its text, trimmed, and its 1-based column in the line.
struct Cell {
  std::string_view text;
  int column = 0;
};

std::vector<Cell> cells(std::string_view line) {
  std::vector<Cell> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    std::string_view cell = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const size_t lead = std::min(cell.find_first_not_of(kBlank), cell.size());
    cell.remove_prefix(lead);
    cell = cell.substr(0, cell.find_last_not_of(kBlank) + 1);
    out.push_back({cell, static_cast<int>(start + lead) + 1});
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
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
  int number = 0;  // line
  int header_line = 0;
  int column[3] = {-1, -1, -1};  // arrival_s, prompt_tokens, output_tokens
  const char* names[3] = {"arrival_s", "prompt_tokens", "output_tokens"};
  auto fail = [&](int at, const char* key, const std::string& m) {
    throw Error(SourcePlace{file, number, at, key ? key : ""}, m);
  };
  // Calls `f(line)` for each line that is neither blank nor a comment, `number` at its line.
  auto each_line = [&](auto&& f) {
    number = 0;
    for (size_t start = 0; start < text.size();) {
      const size_t newline = text.find('\n', start);
      const std::string_view line =
          text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
      start = newline == std::string_view::npos ? text.size() : newline + 1;
      ++number;
      const size_t first = line.find_first_not_of(kBlank);
      if (first != std::string_view::npos && line[first] != '#') f(line);
    }
  };
  // Rows are counted first: a trace past the limit is refused at its first extra row, before
  // anything is parsed or allocated for it.
  int64_t rows = -1;  // the header is not a row
  each_line([&](std::string_view) {
    if (++rows > limits::kRequests.value) {
      fail(0, nullptr, "more than " + std::to_string(limits::kRequests.value) + " requests (" +
                           std::string(limits::kRequests.name) + "); split the trace");
    }
  });
  std::vector<Request> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(rows, 0)));
  each_line([&](std::string_view line) {
    const std::vector<Cell> c = cells(line);
    if (header_line == 0) {
      for (size_t k = 0; k < c.size(); ++k) {
        const auto* it = std::find_if(std::begin(names), std::end(names),
                                      [&](const char* n) { return c[k].text == n; });
        if (it == std::end(names)) {
          fail(c[k].column, nullptr, "unknown column '" + excerpt(std::string(c[k].text)) +
                                         "' (expected arrival_s, prompt_tokens, output_tokens)");
        }
        int& slot = column[it - std::begin(names)];
        if (slot >= 0) fail(c[k].column, nullptr, "column '" + std::string(*it) + "' appears twice");
        slot = static_cast<int>(k);
      }
      for (int k = 0; k < 3; ++k) {
        if (column[k] < 0) fail(0, nullptr, std::string("missing column '") + names[k] + "'");
      }
      header_line = number;
      return;
    }
    if (c.size() != 3)
      fail(0, nullptr, "expected 3 cells (arrival_s, prompt_tokens, output_tokens), got " + std::to_string(c.size()));
    const Cell& a = c[static_cast<size_t>(column[0])];
    const std::string quoted = excerpt(std::string(a.text));
    const std::optional<double> arrival = parse_decimal(a.text);
    if (!arrival || *arrival < 0.0) fail(a.column, names[0], "expected seconds >= 0, got '" + quoted + "'");
    Request r;
    r.id = static_cast<int64_t>(out.size());
    try {
      r.arrival = Time::from_seconds(*arrival);
    } catch (const Error& e) {
      fail(a.column, names[0], "'" + quoted + "': " + e.what());
    }
    if (!out.empty() && r.arrival < out.back().arrival) {
      fail(a.column, names[0], "'" + quoted + "' is before the previous request's arrival: rows must be in arrival order");
    }
    for (int k = 1; k < 3; ++k) {
      const Cell& v = c[static_cast<size_t>(column[k])];
      const std::string cell(v.text);
      errno = 0;
      char* end = nullptr;
      const long long n = std::strtoll(cell.c_str(), &end, 10);
      if (cell.empty() || *end != '\0' || errno == ERANGE || n < 1 || n > limits::kSequenceLength.value) {
        fail(v.column, names[k], "expected an integer 1.." + std::to_string(limits::kSequenceLength.value) + ", got '" +
                                     excerpt(cell) + "'");
      }
      (k == 1 ? r.prompt_tokens : r.output_tokens) = n;
    }
    out.push_back(r);
  });
  if (header_line == 0)
    throw Error(SourcePlace{file, 0, 0, ""}, "no header row (arrival_s, prompt_tokens, output_tokens)");
  if (out.empty()) {
    throw Error(SourcePlace{file, header_line, 0, ""},
                "the trace has no requests: after the header, one row per request (arrival_s, prompt_tokens, "
                "output_tokens)");
  }
  return out;
}

std::vector<Request> load_request_trace(const std::string& path) {
  return parse_request_trace(read_input_file(path, "request trace", limits::kCsvFileBytes), path);
}

}  // namespace lightcode::serve
