#include "hw_models/cpu/calibration.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/core/checked.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::hw {
namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;

[[noreturn]] void fail_at(const std::string& file, int line, const std::string& column,
                          const std::string& message) {
  throw Error(SourcePlace{file, line, 0, column}, message);
}

// One CSV record: comma-separated, fields optionally double-quoted ("" is a quote).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// Nested lists of integers, as Python prints them: "[[[1, 2], []], [[1, 2]]]".
struct Nested {
  bool is_list = false;
  int64_t value = 0;
  std::vector<Nested> items;
};

class NestedParser {
 public:
  explicit NestedParser(const std::string& s) : s_(s) {}
  bool parse(Nested& out) {
    if (!value(out)) return false;
    skip();
    return i_ == s_.size();
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool value(Nested& out, int depth = 0) {
    skip();
    if (i_ >= s_.size() || depth > limits::kCsvShapeDepth.value) return false;
    if (s_[i_] == '[') {
      ++i_;
      out.is_list = true;
      skip();
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return true;
      }
      while (true) {
        out.items.emplace_back();
        if (!value(out.items.back(), depth + 1)) return false;
        skip();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
        } else if (i_ < s_.size() && s_[i_] == ']') {
          ++i_;
          return true;
        } else {
          return false;
        }
      }
    }
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    const long long v = std::strtoll(begin, &end, 10);
    if (end == begin || v < 0) return false;
    out.value = v;
    i_ += static_cast<size_t>(end - begin);
    return true;
  }

  const std::string& s_;
  size_t i_ = 0;
};

// A list of shapes -> element counts and last dimensions; false when not a list of int lists.
bool shapes_of(const Nested& n, std::vector<std::vector<int64_t>>& out) {
  if (!n.is_list) return false;
  for (const Nested& shape : n.items) {
    if (!shape.is_list) return false;
    std::vector<int64_t> dims;
    for (const Nested& d : shape.items) {
      if (d.is_list) return false;
      dims.push_back(d.value);
    }
    out.push_back(std::move(dims));
  }
  return true;
}

int64_t elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n = checked_mul(n, d, "the elements of a shape");
  return n;
}

struct Line {
  double slope = 0.0;
  double offset = 0.0;
  double r2 = 0.0;
};

Line least_squares(const std::vector<const TimingRow*>& rows) {
  const auto n = static_cast<double>(rows.size());
  double mx = 0.0, my = 0.0;
  for (const TimingRow* r : rows) {
    mx += r->work;
    my += r->seconds;
  }
  mx /= n;
  my /= n;
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (const TimingRow* r : rows) {
    sxx += (r->work - mx) * (r->work - mx);
    sxy += (r->work - mx) * (r->seconds - my);
    syy += (r->seconds - my) * (r->seconds - my);
  }
  Line l;
  // One distinct work value, or time falling with work (noise on tiny ops): a constant.
  if (sxx > 0.0 && sxy > 0.0) l.slope = sxy / sxx;
  l.offset = my - l.slope * mx;
  double ss_res = 0.0;
  for (const TimingRow* r : rows) {
    const double e = r->seconds - (l.slope * r->work + l.offset);
    ss_res += e * e;
  }
  l.r2 = syy > 0.0 ? 1.0 - ss_res / syy : (ss_res == 0.0 ? 1.0 : 0.0);
  return l;
}

}  // namespace

bool counts_macs(const std::string& kind) {
  return kind == "dense" || kind == "matmul" || kind == "pack" || kind == "matrix_matrix";
}

std::vector<TimingRow> read_timings_csv(const std::string& path,
                                        const CalibrationOptions& options) {
  return parse_timings_csv(read_input_file(path, "timings CSV", limits::kCsvFileBytes), path, options);
}

std::vector<TimingRow> parse_timings_csv(std::string_view csv, const std::string& path,
                                         const CalibrationOptions& options) {
  std::istringstream in{std::string(csv)};
  std::string text;
  int line_no = 0;
  if (!std::getline(in, text)) fail_at(path, 1, "", "empty file (expected a header row)");
  ++line_no;
  const std::vector<std::string> header = split_csv(text);
  auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
      fail_at(path, 1, "",
              std::string("missing column '") + name +
                  "' (expected tvm_func, compiler_name, microseconds, shape)");
    }
    return static_cast<size_t>(it - header.begin());
  };
  const size_t kind_col = column("compiler_name");
  const size_t us_col = column("microseconds");
  const size_t shape_col = column("shape");
  std::vector<TimingRow> rows;
  while (std::getline(in, text)) {
    ++line_no;
    if (text.empty() || text == "\r") continue;
    const std::vector<std::string> f = split_csv(text);
    if (f.size() != header.size()) {
      fail_at(
          path, line_no, "",
          "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(f.size()));
    }
    TimingRow r;
    r.line = line_no;
    r.file = path;
    r.kind = f[kind_col];
    if (r.kind.empty()) fail_at(path, line_no, "compiler_name", "empty op kind");
    char* end = nullptr;
    const double us = std::strtod(f[us_col].c_str(), &end);
    if (f[us_col].empty() || *end != '\0' || !std::isfinite(us) || us < 0.0) {
      fail_at(path, line_no, "microseconds", "'" + excerpt(f[us_col]) + "' is not a non-negative number");
    }
    r.seconds = us * kSecondsPerMicrosecond;
    Nested shape;
    std::vector<std::vector<int64_t>> ins, outs;
    if (!NestedParser(f[shape_col]).parse(shape) || !shape.is_list || shape.items.size() != 2 ||
        !shapes_of(shape.items[0], ins) || !shapes_of(shape.items[1], outs) || outs.empty()) {
      fail_at(path, line_no, "shape",
              "'" + excerpt(f[shape_col]) + "' is not [[input shapes], [output shapes]] with an output");
    }
    try {
      const int64_t n_out = elements(outs[0]);
      const int64_t k = ins.empty() || ins[0].empty() ? 1 : ins[0].back();
      r.work = static_cast<double>(counts_macs(r.kind) ? checked_mul(n_out, k, "the MACs") : n_out);
      for (const auto& s : ins) {
        r.largest_input_bytes = std::max(r.largest_input_bytes,
                                         checked_mul(elements(s), options.bytes_per_element, "the bytes of an input"));
      }
    } catch (const Error& e) {
      fail_at(path, line_no, "shape", e.what());
    }
    rows.push_back(std::move(r));
  }
  if (rows.empty()) fail_at(path, line_no, "", "no timing rows");
  return rows;
}

Calibration fit_timings(const std::vector<TimingRow>& rows, const CalibrationOptions& options) {
  std::map<std::string, std::vector<const TimingRow*>> by_kind;
  for (const TimingRow& r : rows) by_kind[r.kind].push_back(&r);
  Calibration c;
  c.rows = rows.size();
  for (const auto& [kind, all] : by_kind) {
    std::vector<const TimingRow*> near, far;
    for (const TimingRow* r : all) {
      const bool beyond = options.cache_bytes > 0.0 &&
                          static_cast<double>(r->largest_input_bytes) > options.cache_bytes;
      (beyond ? far : near).push_back(r);
    }
    const auto min_points = static_cast<size_t>(std::max(1, options.min_regime_points));
    const bool split = near.size() >= min_points && far.size() >= min_points;
    const Line main = least_squares(split ? near : all);
    LinearFit f;
    f.per_work_s = main.slope;
    f.offset_s = main.offset;
    f.work = counts_macs(kind) ? LinearFit::Work::macs : LinearFit::Work::elements;
    f.points = static_cast<int>(split ? near.size() : all.size());
    f.r2 = main.r2;
    if (split) {
      const Line beyond = least_squares(far);
      f.beyond_cache_per_work_s = beyond.slope;
      f.beyond_cache_offset_s = beyond.offset;
      f.beyond_cache_points = static_cast<int>(far.size());
      f.beyond_cache_r2 = beyond.r2;
      c.cache_bytes = options.cache_bytes;
    }
    for (const double v : {f.per_work_s, f.offset_s, f.r2, f.beyond_cache_per_work_s, f.beyond_cache_offset_s,
                           f.beyond_cache_r2}) {
      if (!std::isfinite(v)) {
        throw Error(SourcePlace{all.front()->file, all.front()->line, 0, ""},
                    "the fit for '" + kind + "' is not a finite number: the timings (from this row on) are too "
                    "large to fit in double precision");
      }
    }
    c.fits[kind] = f;
  }
  return c;
}

}  // namespace lightcode::hw
