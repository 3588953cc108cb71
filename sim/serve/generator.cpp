#include "sim/serve/generator.hpp"

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/serve/register_policies.hpp"

namespace lightcode::serve {

const ParamTable& requests_table() {
  static const ParamTable table{
      "scenario.requests",
      "Generated requests: arrivals at `arrival_rate` (a scenario key, so that it can be swept) from "
      "a registered arrival process (whose own keys sit beside `arrival`), lengths from registered "
      "distributions, one random stream per seed.",
      {
          Param::count("count", limits::kRequests).required().doc("requests generated"),
          Param::text("arrival").fallback("poisson").doc(
              "a registered arrival process: poisson, or gamma (with `cv`)"),
          Param::table("prompt", lengths_table()).required().doc("prompt tokens"),
          Param::table("output", lengths_table()).required().doc("tokens to generate"),
          Param::integer("seed").fallback("0").doc("the random stream's seed"),
      }};
  return table;
}

GeneratorSpec parse_generator(const ConfigNode& node, ConfigUsage& usage) {
  const ServePolicies& registered = policies();
  const auto chosen = read_selected(node, requests_table(), "arrival", registered.arrival, "arrival process", usage);
  const Params& p = chosen.params;
  GeneratorSpec g;
  g.count = p.count("count");
  g.seed = static_cast<uint64_t>(p.integer("seed"));
  g.arrival = chosen.made;
  const auto lengths = [&](const char* key) {
    if (!p.has(key)) p.node().fail(std::string("missing key '") + key + "' (a length distribution)");
    p.mark(key);
    return read_selected(p.at(key), lengths_table(), "distribution", registered.length, "length distribution", usage).made;
  };
  g.prompt = lengths("prompt");
  g.output = lengths("output");
  return g;
}

std::vector<Request> generate_requests(const GeneratorSpec& spec) {
  if (!(spec.rate_per_s > 0.0) || !std::isfinite(spec.rate_per_s)) throw Error("arrival rate must be > 0 per second");
  if (spec.count < 1 || spec.count > limits::kRequests.value) {
    throw Error("request count must be 1.." + std::to_string(limits::kRequests.value) + " (" +
                std::string(limits::kRequests.name) + ")");
  }
  if (!spec.arrival || !spec.prompt || !spec.output) throw Error("generated requests need arrivals, prompt and output lengths");
  Rng rng(spec.seed);
  std::vector<Request> out;
  out.reserve(static_cast<size_t>(spec.count));
  double t = 0.0;
  for (int64_t i = 0; i < spec.count; ++i) {
    t += spec.arrival->gap_s(rng, spec.rate_per_s);
    Request r;
    r.id = i;
    r.arrival = Time::from_seconds(t);
    r.prompt_tokens = spec.prompt->draw(rng);
    r.output_tokens = spec.output->draw(rng);
    out.push_back(r);
  }
  return out;
}

}  // namespace lightcode::serve
