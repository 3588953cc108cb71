#pragma once
// Generated requests (stage serve's `requests:` mapping): `count` requests whose gaps come from
// an arrival process (arrivals.hpp) at `rate_per_s` (the scenario's `arrival_rate`, kept apart
// so that it can be swept) and whose prompt and output lengths come from length distributions
// (lengths.hpp), all drawn from one xoshiro256** stream seeded by `seed`: per request, its gap,
// then its prompt, then its output. The same spec gives the same requests, bit for bit.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/serve/arrivals.hpp"
#include "sim/serve/lengths.hpp"
#include "sim/serve/requests.hpp"

namespace lightcode::serve {

struct GeneratorSpec {
  int64_t count = 1;
  uint64_t seed = 0;  // the default is requests_table()'s (a test compares them)
  double rate_per_s = 1.0;
  std::shared_ptr<const Arrivals> arrival = std::make_shared<PoissonArrivals>();
  std::shared_ptr<const Lengths> prompt, output;
};

// The `requests:` mapping: count, arrival (a registered arrival process, whose keys sit beside
// it), seed, prompt and output (length distributions).
const ParamTable& requests_table();
// Reads a `requests:` mapping (its rate is set by the caller); errors at file:line.
GeneratorSpec parse_generator(const ConfigNode& node, ConfigUsage& usage);

// Throws lightcode::Error for a rate that is not a positive finite number, a count outside
// 1..limits::kRequests, or missing length distributions.
std::vector<Request> generate_requests(const GeneratorSpec& spec);

}  // namespace lightcode::serve
