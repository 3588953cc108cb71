#pragma once
// Errors a user can act on: every one names where (file, line, column, key path or JSON
// path) and what was expected. Thrown by loaders and validators, caught once in sim/app.
#include <stdexcept>
#include <string>

namespace lightcode {

struct SourcePlace {
  std::string file;  // empty when the input has no file (built in memory)
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
  std::string path;  // key path ("gpu.sms_per_tpc") or JSON path ("nodes[12].inputs[0]")

  std::string str() const;  // "file:line:col: path" with the empty parts left out
};

// Input text quoted in a message: at most `max` characters of it ("..." marks a cut), so that
// a megabyte-long value makes a one-line error.
std::string excerpt(const std::string& text, size_t max = 64);

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  Error(const SourcePlace& where, const std::string& message)
      : std::runtime_error(where.str().empty() ? message : where.str() + ": " + message),
        where_(where) {}
  const SourcePlace& where() const { return where_; }

 private:
  SourcePlace where_;
};

// An Error about a whole file (no line): "<path>: <message>".
[[noreturn]] inline void fail_at(const std::string& path, const std::string& message) {
  throw Error(SourcePlace{path, 0, 0, ""}, message);
}

}  // namespace lightcode
