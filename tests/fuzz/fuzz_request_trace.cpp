// Fuzz target: a serving request trace (sim/serve/requests.hpp) through parse_request_trace.
// Accepted, it holds 1 .. limits::kRequests requests, ids in row order, arrivals from 0 within
// a Time and never decreasing, token counts within limits::kSequenceLength; refused, the error
// quotes no more of the input than an excerpt (a megabyte cell is not echoed).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core/limits.hpp"
#include "sim/serve/requests.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace lightcode;

namespace {

// An error's message: the file name, line and column, the column's name and what was
// expected, with at most an excerpt of the input (64 characters) and of the limits.
constexpr size_t kLongestError = 400;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run(data, size, [](std::string_view text) {
    std::vector<serve::Request> requests;
    try {
      requests = serve::parse_request_trace(text, "<fuzz>/trace.csv");
    } catch (const Error& e) {
      fuzz::require(std::strlen(e.what()) <= kLongestError,
                    "an error of " + std::to_string(std::strlen(e.what())) + " characters: " +
                        std::string(e.what()).substr(0, 200));
      throw;
    }
    fuzz::require(!requests.empty(), "a trace with no requests was accepted");
    fuzz::require(requests.size() <= static_cast<size_t>(limits::kRequests.value), "more requests than the limit");
    Time previous = Time::zero();
    for (size_t i = 0; i < requests.size(); ++i) {
      const serve::Request& r = requests[i];
      const std::string at = "request " + std::to_string(i);
      fuzz::require(r.id == static_cast<int64_t>(i), at + ": id " + std::to_string(r.id));
      fuzz::require(r.arrival >= previous, at + ": arrives before the one before it");
      previous = r.arrival;
      for (int64_t tokens : {r.prompt_tokens, r.output_tokens}) {
        fuzz::require(tokens >= 1 && tokens <= limits::kSequenceLength.value,
                      at + ": " + std::to_string(tokens) + " tokens");
      }
    }
  });
}
