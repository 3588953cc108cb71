#include "sim/results/report.hpp"

#include "sim/core/error.hpp"

namespace lightcode::results {

const char* status_name(Status s) { return s == Status::ok ? "ok" : "failed"; }

Status parse_status(const std::string& text) {
  if (text == "ok") return Status::ok;
  if (text == "failed") return Status::failed;
  throw Error("unknown point status '" + excerpt(text) + "' (known: ok, failed)");
}

}  // namespace lightcode::results
