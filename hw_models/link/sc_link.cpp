#include "hw_models/link/sc_link.hpp"

#include <algorithm>

#include "sim/core/checked.hpp"

namespace lightcode::hw {

LinkChannel::LinkChannel(const sc_core::sc_module_name& name, HopSink& sink, int32_t channel,
                         const LinkSpec& link)
    : sc_core::sc_module(name), busy("busy"), sink_(sink), channel_(channel), delay_(link_delay(link)) {
  SC_METHOD(freed);
  sensitive << free_;
  dont_initialize();
}

void LinkChannel::enqueue(int32_t transfer, int64_t bytes) {
  const Time now = sc_now();
  if (!traced_) {
    const Time start = std::max(now, idle_at_);
    const LinkTiming timing = link_timing(delay_, bytes);
    idle_at_ = start.plus(timing.occupancy, "a link channel's busy time");
    account(bytes, timing.occupancy, start - now);
    sink_.hop_done(transfer, channel_, start, (idle_at_ - now).plus(timing.latency, "a transfer's arrival time"));
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
  const LinkTiming timing = link_timing(delay_, p.bytes);
  account(p.bytes, timing.occupancy, now - p.queued_at);
  sink_.hop_done(p.transfer, channel_, now, timing.total());
  notify_after(free_, timing.occupancy);
}

void LinkChannel::freed() { serve(); }

void LinkChannel::account(int64_t bytes, Time occupied, Time waited) {
  bytes_ = checked_add(bytes_, bytes, "the bytes a link channel carried");
  ++transfers_;
  busy_ = busy_.plus(occupied, "a link channel's busy time");
  queue_delay_ = queue_delay_.plus(waited, "a link channel's queueing time");
}

}  // namespace lightcode::hw
