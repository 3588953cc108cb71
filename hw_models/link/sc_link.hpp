#pragma once
// SystemC link channel (one direction of a link): transfers queue in arrival order and cross
// one at a time; each occupies the channel for its occupancy and reaches the far end its
// latency later (store-and-forward between hops), both from link_timing(), the function the
// transfer model prices links with, so one transfer on an idle link takes the model's time.
// Reports each hop's start and arrival delay to its HopSink. Statistics: bytes, transfers,
// busy time, queueing delay.
// A FIFO channel without preemption is fully described by the time it next falls idle, so
// untraced channels need no kernel events of their own; traced ones (VCD) run the same queue
// on events so that `busy` toggles at the right times.
#include <systemc>

#include <cstdint>
#include <deque>

#include "hw_models/link/link_timing.hpp"
#include "hw_models/sc_service_unit.hpp"

namespace lightcode::hw {

class HopSink {
 public:
  virtual ~HopSink() = default;
  // Transfer `transfer` started across channel `channel` at `start` and reaches its far end
  // at now + `delay`.
  virtual void hop_done(int32_t transfer, int32_t channel, Time start, Time delay) = 0;
};

class LinkChannel final : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(LinkChannel);
  LinkChannel(const sc_core::sc_module_name& name, HopSink& sink, int32_t channel, const LinkSpec& link);

  void enqueue(int32_t transfer, int64_t bytes);
  int64_t bytes() const { return bytes_; }
  int64_t transfers() const { return transfers_; }
  Time busy_time() const { return busy_; }
  Time queue_delay() const { return queue_delay_; }
  void trace_signals() { traced_ = true; }
  sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> busy;

 private:
  struct Pending {
    int32_t transfer;
    int64_t bytes;
    Time queued_at;
  };
  void serve();
  void freed();
  void account(int64_t bytes, Time occupied, Time waited);

  HopSink& sink_;
  int32_t channel_;
  LinkDelay delay_;
  std::deque<Pending> queue_;
  bool serving_ = false;
  bool traced_ = false;
  Time idle_at_;  // untraced: when the channel has sent everything queued so far
  int64_t bytes_ = 0, transfers_ = 0;
  Time busy_, queue_delay_;
  sc_core::sc_event free_;
};

}  // namespace lightcode::hw
