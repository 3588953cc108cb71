#pragma once
// How long n bytes take on a link: the one function the transfer model and the SystemC link
// channel both call, so that neither times a link itself.
//   occupancy  n / bandwidth: how long the transfer holds the link (others queue behind it);
//              zero for bandwidth 0 (unlimited)
//   latency    how much later than its last byte was sent the transfer arrives
// Models compute in double seconds and round once: the total, latency + n / bandwidth, rounds
// to the nearest picosecond, the occupancy too, and the latency is the difference. So
// occupancy + latency is exactly the transfer model's time, and a transfer over one idle link
// takes that time at event fidelity too, to the picosecond.
// A route of several links prices as one chain (latencies and seconds per byte added, then
// rounded once): the transfer model's time. The event engine forwards hop by hop, each hop
// rounded on its own, so an idle multi-hop route may differ from the chain by up to 1 ps per
// hop after the first.
#include <cstdint>

#include "hw_models/link/link_spec.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode::hw {

// A link's (or a chain's) delay as configured, in SI units.
struct LinkDelay {
  double latency_s = 0.0;
  double seconds_per_byte = 0.0;  // 1 / bandwidth; 0 = unlimited
};

LinkDelay link_delay(const LinkSpec& link);
// The chain a transfer crosses store-and-forward: `first`, then `second`.
LinkDelay chain(const LinkDelay& first, const LinkDelay& second);

struct LinkTiming {
  Time occupancy;
  Time latency;
  Time total() const { return occupancy.plus(latency, "a transfer's time"); }
};

// Throws lightcode::Error when a time is not representable (see Time::from_seconds).
LinkTiming link_timing(const LinkDelay& delay, int64_t bytes);
// link_timing(delay, bytes).total(), computed once (the transfer model's hot path).
inline Time link_time(const LinkDelay& delay, int64_t bytes) {
  return Time::from_seconds(delay.latency_s + static_cast<double>(bytes) * delay.seconds_per_byte);
}
inline LinkTiming link_timing(const LinkSpec& link, int64_t bytes) { return link_timing(link_delay(link), bytes); }

}  // namespace lightcode::hw
