#include "hw_models/link/sc_link.hpp"

#include <algorithm>
#include <cmath>

namespace lightcode::hw {

LinkChannel::LinkChannel(const sc_core::sc_module_name& name, HopSink& sink, int32_t channel,
                         double bandwidth, double latency_s)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), channel_(channel),
      seconds_per_byte_(bandwidth > 0.0 ? 1.0 / bandwidth : 0.0),
      latency_ps_(std::llround(latency_s * 1e12)) {
  SC_METHOD(freed);
  sensitive << free_;
  dont_initialize();
}

void LinkChannel::enqueue(int32_t transfer, int64_t bytes) {
  const auto now = static_cast<int64_t>(sc_core::sc_time_stamp().value());
  if (!traced_) {
    const int64_t start = std::max(now, idle_at_ps_);
    const int64_t occupy = std::llround(static_cast<double>(bytes) * seconds_per_byte_ * 1e12);
    idle_at_ps_ = start + occupy;
    bytes_ += bytes;
    ++transfers_;
    busy_ps_ += occupy;
    queue_delay_ps_ += start - now;
    sink_.hop_done(transfer, channel_, start, start - now + occupy + latency_ps_);
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
  const int64_t occupy = std::llround(static_cast<double>(p.bytes) * seconds_per_byte_ * 1e12);
  bytes_ += p.bytes;
  ++transfers_;
  busy_ps_ += occupy;
  queue_delay_ps_ += now - p.queued_at_ps;
  sink_.hop_done(p.transfer, channel_, now, occupy + latency_ps_);
  notify_after(free_, occupy);
}

void LinkChannel::freed() { serve(); }

}  // namespace lightcode::hw
