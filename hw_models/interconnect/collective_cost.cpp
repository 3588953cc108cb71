#include "hw_models/interconnect/collective_cost.hpp"

#include <cmath>
#include <string>

#include "sim/core/error.hpp"

namespace lightcode::hw {
namespace {


[[noreturn]] void reject(const InterconnectSpec& spec, ir::OpKind kind, std::string_view op, const std::string& why) {
  const std::string what = op.empty() ? std::string(ir::op_kind_name(kind)) : std::string(op);
  const std::string where = spec.name.empty() ? "an interconnect" : "interconnect '" + spec.name + "'";
  throw Error("op '" + what + "' on " + where + ": " + why);
}

// Link bytes as an integer count: what cannot be represented is an error, not a wrap.
int64_t checked_link_bytes(double bytes, const InterconnectSpec& spec, ir::OpKind kind, std::string_view op) {
  constexpr double kMaxBytes = 9.2e18;  // below 2^63, with room for the double's rounding
  if (!(bytes >= 0.0 && bytes < kMaxBytes)) reject(spec, kind, op, "the bytes on the links exceed 64-bit integers");
  return std::llround(bytes);
}

}  // namespace

CollectiveCost estimate_collective(const InterconnectSpec& spec, ir::OpKind kind, int64_t bytes, int64_t ranks,
                                   std::string_view op) {
  if (!ir::is_collective(kind))
    reject(spec, kind, op, std::string("kind '") + std::string(ir::op_kind_name(kind)) +
                               "' is not a collective (all_reduce, all_gather, reduce_scatter, send_recv)");
  if (ranks < 2) reject(spec, kind, op, "ranks " + std::to_string(ranks) + ": a collective needs at least 2");
  if (ranks > spec.devices)
    reject(spec, kind, op, "ranks " + std::to_string(ranks) + " exceed the " + std::to_string(spec.devices) +
                               " devices of the dimension");
  if (bytes < 0) reject(spec, kind, op, "negative bytes " + std::to_string(bytes));

  const collective_fit::TransportFit& transport = transport_fit(spec.transport);
  const double buffer = static_cast<double>(bytes);
  const double transport_rate = spec.bandwidth * transport.bandwidth_fraction;
  CollectiveCost best;
  double best_s = 0.0;
  for (const CollectiveAlgorithm& algorithm : collective_algorithms()) {
    if (!algorithm.runs(spec, kind)) continue;
    const int64_t steps = algorithm.steps(kind, ranks);
    const double traffic = buffer * algorithm.traffic(kind, ranks);
    for (const CollectiveProtocol& protocol : collective_protocols()) {
      const double step_s = spec.latency_s + transport.step_overhead_s + protocol.fit.step_latency_s;
      const double latency_s = algorithm.fit.base_latency_s + static_cast<double>(steps) * step_s;
      const double rate = transport_rate * algorithm.fit.bandwidth_fraction * protocol.rate_fraction();
      const double transfer_s = traffic / rate;
      const double total_s = latency_s + transfer_s;
      if (best.algorithm != nullptr && !(total_s < best_s)) continue;
      best_s = total_s;
      best.algorithm = &algorithm;
      best.protocol = &protocol;
      best.steps = steps;
      best.latency_s = latency_s;
      best.transfer_s = transfer_s;
    }
  }
  if (best.algorithm == nullptr)
    reject(spec, kind, op, "no registered algorithm runs it on a " + std::string(topology_name(spec.topology)));
  best.time = Time::from_seconds(best_s);
  const double link_bytes = buffer * best.algorithm->link_bytes(kind, ranks);
  best.link_bytes = checked_link_bytes(link_bytes, spec, kind, op);
  best.energy = Energy::from_joules(link_bytes * kBitsPerByte * spec.energy_per_bit_j);
  return best;
}

}  // namespace lightcode::hw
