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
#include "sim/core/named_registry.hpp"
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

// Gamma(shape, 1) by Marsaglia and Tsang (2000); shape < 1 through the boost u^(1/shape).
double gamma_unit(Rng& rng, double shape) {
  if (shape < 1.0) return gamma_unit(rng, shape + 1.0) * std::pow(rng.uniform(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0.0, v = 0.0;
    do {
      x = rng.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = rng.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

double poisson_gap(Rng& rng, const GeneratorSpec& s) {
  return -std::log(rng.uniform()) / s.rate_per_s;
}

// Below this cv (shape 1 / cv^2 above 1e8) the gaps are drawn by the same method written in cv
// (gamma_gap_narrow): the shape-form acceptance test cancels terms of size shape to keep ones
// of size 1, and the shape itself overflows for cv < 7.5e-155 (then the test is NaN forever).
constexpr double kNarrowCv = 1e-4;

// Marsaglia and Tsang for shape 1 / cv^2, in cv: with d = shape - 1/3, c = 1 / sqrt(9 d) and
// w = c x, the test log u < x^2 / 2 + d (1 - v + log v), v = (1 + w)^3, is exactly
// log u < (c^2 x^4 / 3) (-1/4 + w/5 - w^2/6 + w^3/7 - ...) (the series of 3 d (log1p(w) - w
// + w^2/2 - w^3/3), whose first terms cancel x^2 / 2); |w| < 3e-4 here, so four terms hold it
// to 1e-16. The gap d v / (shape rate) is (1 - cv^2 / 3) v / rate: nothing overflows.
double gamma_gap_narrow(Rng& rng, const GeneratorSpec& s) {
  const double k = 1.0 - s.cv * s.cv / 3.0;  // d / shape
  const double c = s.cv / (3.0 * std::sqrt(k));
  for (;;) {
    const double x = rng.normal();
    const double w = c * x;
    const double u = rng.uniform();
    const double series = -1.0 / 4.0 + w * (1.0 / 5.0 + w * (-1.0 / 6.0 + w / 7.0));
    if (std::log(u) < c * c * x * x * x * x / 3.0 * series) return k * (1.0 + w) * (1.0 + w) * (1.0 + w) / s.rate_per_s;
  }
}

// Gamma gaps with mean 1 / rate and coefficient of variation cv: shape 1 / cv^2.
double gamma_gap(Rng& rng, const GeneratorSpec& s) {
  if (!(s.cv > 0.0) || !(s.cv <= kGammaMaxCv)) {
    char text[96];
    std::snprintf(text, sizeof text, "gamma arrivals: cv must be above 0 and at most %g, got %g", kGammaMaxCv, s.cv);
    throw Error(std::string(text) + " (" + std::string(kGammaMaxCvWhy) + ")");
  }
  if (s.cv < kNarrowCv) return gamma_gap_narrow(rng, s);
  const double shape = 1.0 / (s.cv * s.cv);
  return gamma_unit(rng, shape) / (shape * s.rate_per_s);
}

int64_t fixed_length(Rng&, const LengthSpec& l) {
  return l.value;
}

int64_t uniform_length(Rng& rng, const LengthSpec& l) {
  const auto span = static_cast<uint64_t>(l.max - l.min + 1);
  return l.min + static_cast<int64_t>(rng.next() % span);  // span << 2^64: the bias is negligible
}

int64_t lognormal_length(Rng& rng, const LengthSpec& l) {
  const double v = l.median * std::exp(l.sigma * rng.normal());
  return std::clamp(static_cast<int64_t>(std::llround(std::min(v, 1e15))), l.min, l.max);
}

void check_length(const LengthSpec& l, const char* what) {
  const int64_t most = limits::kSequenceLength.value;
  auto fail = [&](const std::string& m) { throw Error(std::string(what) + " lengths: " + m); };
  const LengthDistribution& d =
      named_in(length_distributions(), l.distribution, "length distribution");
  if (d.draw == fixed_length && (l.value < 1 || l.value > most))
    fail("value must be 1.." + std::to_string(most));
  if (d.draw != fixed_length && (l.min < 1 || l.max < l.min || l.max > most)) {
    fail("need 1 <= min <= max <= " + std::to_string(most) + ", got " + std::to_string(l.min) +
         ".." + std::to_string(l.max));
  }
  if (d.draw == lognormal_length &&
      (!(l.median > 0.0) || !(l.sigma >= 0.0) || !std::isfinite(l.median + l.sigma))) {
    fail("lognormal needs median > 0 and sigma >= 0");
  }
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
  return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * kPi * uniform());
}

const std::vector<ArrivalProcess>& arrival_processes() {
  static const std::vector<ArrivalProcess> table{
      {"poisson", "exponential gaps at `rate` per second", poisson_gap},
      {"gamma",
       "gamma gaps at `rate` per second with coefficient of variation `cv` (1: Poisson; > 1 "
       "burstier)",
       gamma_gap},
  };
  return table;
}

const std::vector<LengthDistribution>& length_distributions() {
  static const std::vector<LengthDistribution> table{
      {"fixed", "every request `value` tokens", fixed_length},
      {"uniform", "uniform on min..max", uniform_length},
      {"lognormal", "median x exp(sigma x N(0,1)), rounded and clipped to min..max",
       lognormal_length},
  };
  return table;
}

std::vector<Request> generate_requests(const GeneratorSpec& spec) {
  const ArrivalProcess& arrival = named_in(arrival_processes(), spec.arrival, "arrival process");
  if (!(spec.rate_per_s > 0.0) || !std::isfinite(spec.rate_per_s))
    throw Error("arrival rate must be > 0 per second");
  if (!(spec.cv > 0.0) || !std::isfinite(spec.cv)) throw Error("arrival cv must be > 0");
  if (spec.count < 1 || spec.count > limits::kRequests.value) {
    throw Error("request count must be 1.." + std::to_string(limits::kRequests.value) + " (" +
                std::string(limits::kRequests.name) + ")");
  }
  check_length(spec.prompt, "prompt");
  check_length(spec.output, "output");
  const LengthDistribution& prompt =
      named_in(length_distributions(), spec.prompt.distribution, "length distribution");
  const LengthDistribution& output =
      named_in(length_distributions(), spec.output.distribution, "length distribution");
  Rng rng(spec.seed);
  std::vector<Request> out;
  out.reserve(static_cast<size_t>(spec.count));
  double t = 0.0;
  for (int64_t i = 0; i < spec.count; ++i) {
    t += arrival.gap_s(rng, spec);
    Request r;
    r.id = i;
    r.arrival = Time::from_seconds(t);
    r.prompt_tokens = prompt.draw(rng, spec.prompt);
    r.output_tokens = output.draw(rng, spec.output);
    out.push_back(r);
  }
  return out;
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
