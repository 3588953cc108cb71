#include "hw_models/link/sc_link.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/checked.hpp"
#include "sim/core/quantity.hpp"

namespace lightcode::hw {

LinkChannel::LinkChannel(const sc_core::sc_module_name& name, HopSink& sink, int32_t channel,
                         double bandwidth, double latency_s)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), channel_(channel),
      seconds_per_byte_(bandwidth > 0.0 ? 1.0 / bandwidth : 0.0),
      latency_ps_(Time::from_seconds(latency_s).count_ps()) {
  SC_METHOD(freed);
  sensitive << free_;
  dont_initialize();
}

void LinkChannel::enqueue(int32_t transfer, int64_t bytes) {
  const auto now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
  if (!traced_) {
    const int64_t start = std::max(now, idle_at_ps_);
    const int64_t occupy = occupancy_ps(bytes);
    idle_at_ps_ = add_ps(start, occupy, "a link channel's busy time");
    account(bytes, occupy, start - now);
    sink_.hop_done(transfer, channel_, start,
                   add_ps(idle_at_ps_ - now, latency_ps_, "a transfer's arrival time"));
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
  const auto now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
  const int64_t occupy = occupancy_ps(p.bytes);
  account(p.bytes, occupy, now - p.queued_at_ps);
  sink_.hop_done(p.transfer, channel_, now, add_ps(occupy, latency_ps_, "a transfer's arrival time"));
  notify_after(free_, occupy);
}

void LinkChannel::freed() { serve(); }

int64_t LinkChannel::occupancy_ps(int64_t bytes) const {
  return Time::from_seconds(static_cast<double>(bytes) * seconds_per_byte_).count_ps();
}

void LinkChannel::account(int64_t bytes, int64_t occupy_ps, int64_t waited_ps) {
  bytes_ = checked_add(bytes_, bytes, "the bytes a link channel carried");
  ++transfers_;
  busy_ps_ = add_ps(busy_ps_, occupy_ps, "a link channel's busy time");
  queue_delay_ps_ = add_ps(queue_delay_ps_, waited_ps, "a link channel's queueing time");
}

}  // namespace lightcode::hw
