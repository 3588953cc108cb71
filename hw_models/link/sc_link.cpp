#include "hw_models/link/sc_link.hpp"

#include <algorithm>

#include "sim/core/checked.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode::hw {

LinkChannel::LinkChannel(const sc_core::sc_module_name& name, HopSink& sink, int32_t channel,
                         double bandwidth, double latency_s)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), channel_(channel),
      seconds_per_byte_(bandwidth > 0.0 ? 1.0 / bandwidth : 0.0),
      latency_(Time::from_seconds(latency_s)) {
  SC_METHOD(freed);
  sensitive << free_;
  dont_initialize();
}

void LinkChannel::enqueue(int32_t transfer, int64_t bytes) {
  const Time now = sc_now();
  if (!traced_) {
    const Time start = std::max(now, idle_at_);
    const Time occupied = occupancy(bytes);
    idle_at_ = start.plus(occupied, "a link channel's busy time");
    account(bytes, occupied, start - now);
    sink_.hop_done(transfer, channel_, start, (idle_at_ - now).plus(latency_, "a transfer's arrival time"));
    return;
  }
  queue_.push_back(Pending{transfer, bytes, now});
  if (!serving_) serve();
}

void LinkChannel::serve() {
  if (queue_.empty()) {
    serving_ = false;
    if (traced_) busy.write(false);
    return;
  }
  const Pending p = queue_.front();
  queue_.pop_front();
  serving_ = true;
  if (traced_) busy.write(true);
  const Time now = sc_now();
  const Time occupied = occupancy(p.bytes);
  account(p.bytes, occupied, now - p.queued_at);
  sink_.hop_done(p.transfer, channel_, now, occupied.plus(latency_, "a transfer's arrival time"));
  notify_after(free_, occupied);
}

void LinkChannel::freed() { serve(); }

Time LinkChannel::occupancy(int64_t bytes) const {
  return Time::from_seconds(static_cast<double>(bytes) * seconds_per_byte_);
}

void LinkChannel::account(int64_t bytes, Time occupied, Time waited) {
  bytes_ = checked_add(bytes_, bytes, "the bytes a link channel carried");
  ++transfers_;
  busy_ = busy_.plus(occupied, "a link channel's busy time");
  queue_delay_ = queue_delay_.plus(waited, "a link channel's queueing time");
}

}  // namespace lightcode::hw
