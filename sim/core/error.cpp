#include "sim/core/error.hpp"

namespace lightcode {

std::string excerpt(const std::string& text, size_t max) {
  return text.size() <= max || max < 4 ? text : text.substr(0, max - 3) + "...";
}

std::string SourcePlace::str() const {
  std::string out = file;
  if (line > 0) {
    out += (out.empty() ? "line " : ":") + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  // A key path is input too (keys of up to limits::kNameBytes): quoted as an excerpt.
  if (!path.empty()) out += (out.empty() ? "" : ": ") + excerpt(path, 128);
  return out;
}

}  // namespace lightcode
