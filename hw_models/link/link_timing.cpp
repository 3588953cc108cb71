#include "hw_models/link/link_timing.hpp"

namespace lightcode::hw {

LinkDelay link_delay(const LinkSpec& link) {
  return {link.latency_s, link.bandwidth > 0.0 ? 1.0 / link.bandwidth : 0.0};
}

LinkDelay chain(const LinkDelay& first, const LinkDelay& second) {
  return {first.latency_s + second.latency_s, first.seconds_per_byte + second.seconds_per_byte};
}

LinkTiming link_timing(const LinkDelay& delay, int64_t bytes) {
  const Time occupancy = Time::from_seconds(static_cast<double>(bytes) * delay.seconds_per_byte);
  // Rounding is monotonic and latency_s >= 0, so the total is never below the occupancy.
  const Time total = link_time(delay, bytes);
  return {occupancy, total - occupancy};
}

}  // namespace lightcode::hw
