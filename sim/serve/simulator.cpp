#include "sim/serve/simulator.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "sim/core/error.hpp"

namespace lightcode::serve {

double RequestRecord::tpot_s() const {
  if (output_tokens <= 1) return 0.0;
  return (finish - first_token).seconds() / static_cast<double>(output_tokens - 1);
}

namespace {

const Time kUnset = Time::max();

struct Replica {
  const ReplicaSpec* spec = nullptr;
  ReplicaState state;
  bool busy = false;
  Time busy_until, wake = Time::max();
  Energy busy_energy;                 // the running iteration's
  std::vector<SlotRecord> in_flight;  // the running iteration's slots (reused, not reallocated)
  size_t iteration = 0;               // its index in ServeResult::iterations, when kept
};

void validate(const std::vector<Request>& requests, const ServeSpec& spec) {
  if (spec.replicas.empty()) throw Error("serving: no replica");
  for (size_t i = 0; i < spec.replicas.size(); ++i) {
    const ReplicaSpec& r = spec.replicas[i];
    const std::string where = "replica " + std::to_string(i) + ": ";
    if (!r.cost) throw Error(where + "no iteration cost");
    if (r.kv_capacity_tokens < 1) throw Error(where + "KV capacity must be >= 1 token");
    if (!(r.static_power_w >= 0.0)) throw Error(where + "static power must be >= 0 W");
    if (!(r.overhead_extra_power_w >= 0.0)) throw Error(where + "power during host overhead must be >= its static power");
    if (!r.batching) throw Error(where + "no batching policy");
  }
  if (!spec.dispatch) throw Error("serving: no dispatch policy");
  spec.dispatch->validate(spec.replicas.size());
  for (const Request& q : requests) {
    if (q.prompt_tokens < 1 || q.output_tokens < 1)
      throw Error("request " + std::to_string(q.id) + ": prompt and output tokens must be >= 1");
  }
}

class Simulation {
 public:
  Simulation(const std::vector<Request>& requests, const ServeSpec& spec)
      : requests_(requests), spec_(spec), dispatch_(spec.dispatch.get()) {
    for (const ReplicaSpec& r : spec.replicas) {
      Replica replica;
      replica.spec = &r;
      replica.state.kv_capacity = r.kv_capacity_tokens;
      replicas_.push_back(std::move(replica));
    }
    dispatch_state_.outstanding_tokens.assign(replicas_.size(), 0);
    result_.replicas.resize(replicas_.size());
    for (const Request& q : requests) {
      RequestRecord rec;
      rec.id = q.id;
      rec.prompt_tokens = q.prompt_tokens;
      rec.output_tokens = q.output_tokens;
      rec.arrival = q.arrival;
      rec.first_service = rec.first_token = rec.finish = kUnset;
      result_.requests.push_back(rec);
    }
    order_.resize(requests.size());
    std::iota(order_.begin(), order_.end(), size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](size_t a, size_t b) { return requests[a].arrival < requests[b].arrival; });
  }

  ServeResult run() {
    size_t next = 0;
    while (finished_ < requests_.size()) {
      Time now = next < order_.size() ? requests_[order_[next]].arrival : Time::max();
      for (const Replica& r : replicas_) now = std::min(now, r.busy ? r.busy_until : r.wake);
      if (now == Time::max()) throw std::logic_error("serving: internal error, no event left");
      for (size_t i = 0; i < replicas_.size(); ++i) {
        if (replicas_[i].busy && replicas_[i].busy_until == now) complete(i, now);
      }
      for (; next < order_.size() && requests_[order_[next]].arrival == now; ++next)
        dispatch(order_[next]);
      for (size_t i = 0; i < replicas_.size(); ++i) {
        if (!replicas_[i].busy) start(i, now);
      }
      if (!steady_over_ && next == order_.size() &&
          std::all_of(replicas_.begin(), replicas_.end(), [](const Replica& r) { return r.state.queue.empty(); })) {
        steady_over_ = true;
        result_.steady_end = now;
      }
      for (size_t i = 0; i < replicas_.size(); ++i) {
        // A step function: a sample only where (queue, running) changed (a replica untouched by
        // an event would repeat its last one; at 100,000 requests that was 135 MB).
        const ReplicaState& s = replicas_[i].state;
        const QueueSample sample{now, static_cast<int64_t>(s.queue.size()), static_cast<int64_t>(s.running.size())};
        std::vector<QueueSample>& series = result_.replicas[i].series;
        if (series.empty() || series.back().queue != sample.queue || series.back().running != sample.running) {
          series.push_back(sample);
        }
      }
    }
    for (const RequestRecord& r : result_.requests) {
      if (!r.rejected()) result_.run_time = std::max(result_.run_time, r.finish);
    }
    return std::move(result_);
  }

 private:
  void dispatch(size_t index) {
    const Request& q = requests_[index];
    const size_t to = dispatch_->choose(q, dispatch_state_);
    Replica& r = replicas_.at(to);
    ++dispatch_state_.dispatched;
    result_.requests[index].replica = to;
    const int64_t peak = q.prompt_tokens + q.output_tokens - 1;
    if (peak > r.spec->kv_capacity_tokens) {  // it can never run there: rejected now
      result_.requests[index].rejection =
          "needs " + std::to_string(peak) + " KV tokens (prompt " + std::to_string(q.prompt_tokens) +
          " + output " + std::to_string(q.output_tokens) + " - 1), more than replica " + std::to_string(to) +
          "'s capacity of " + std::to_string(r.spec->kv_capacity_tokens);
      ++result_.rejected;
      ++finished_;
      return;
    }
    dispatch_state_.outstanding_tokens[to] += q.prompt_tokens + q.output_tokens;
    Sequence s;
    s.request = index;
    s.arrival = q.arrival;
    s.prompt = q.prompt_tokens;
    s.output = q.output_tokens;
    r.state.queue.push_back(s);
  }

  void start(size_t index, Time now) {
    Replica& r = replicas_[index];
    Formation f = r.spec->batching->form(r.state, now);
    for (size_t p : r.state.preempted) ++result_.requests[p].preemptions;
    r.state.preempted.clear();
    r.wake = f.wake;
    if (f.slots.empty()) return;
    const int64_t kv = r.state.kv_used();
    if (kv > r.state.kv_capacity)
      throw std::logic_error("serving: internal error, replica " + std::to_string(index) +
                             " holds " + std::to_string(kv) + " KV tokens, capacity " +
                             std::to_string(r.state.kv_capacity));
    batch_.sequences.clear();
    r.in_flight.clear();
    for (const Slot& s : f.slots) {
      batch_.sequences.push_back({s.new_tokens, s.context});
      r.in_flight.push_back({s.request, s.new_tokens, s.context, s.decode, false});
      RequestRecord& q = result_.requests[s.request];
      if (q.first_service == kUnset) q.first_service = now;
    }
    const IterationEstimate cost = r.spec->cost->estimate(batch_);
    const Time host = r.spec->iteration_overhead + r.spec->sequence_overhead * static_cast<int64_t>(f.slots.size());
    const Time end = now.plus(cost.time, "the serving run's time").plus(host, "the serving run's time");
    const Energy energy = cost.energy + Energy::from_joules(r.spec->overhead_extra_power_w * host.seconds());
    ReplicaRecord& rr = result_.replicas[index];
    ++rr.iterations;
    rr.busy += cost.time;
    rr.dynamic_energy += energy;
    rr.peak_kv = std::max(rr.peak_kv, kv);
    r.busy = true;
    r.busy_until = end;
    r.busy_energy = energy;
    r.wake = Time::max();
    ++result_.iteration_count;
    if (!spec_.keep_iterations) return;
    r.iteration = result_.iterations.size();
    result_.iterations.push_back(IterationRecord{index, now, end, energy, kv, r.in_flight});
  }

  void complete(size_t index, Time now) {
    Replica& r = replicas_[index];
    r.busy = false;
    if (!steady_over_) {
      result_.steady_dynamic_energy += r.busy_energy;
      ++result_.steady_iterations;
      result_.steady_sequence_iterations += static_cast<int64_t>(r.in_flight.size());
    }
    for (size_t k = 0; k < r.in_flight.size(); ++k) {
      SlotRecord& slot = r.in_flight[k];
      Sequence* s = r.state.find_running(slot.request);
      if (!s) throw std::logic_error("serving: internal error, a slot's sequence left early");
      if (!slot.decode) s->prefilled += slot.new_tokens;
      slot.produced_token = s->decoding();
      if (spec_.keep_iterations)
        result_.iterations[r.iteration].slots[k].produced_token = slot.produced_token;
      if (!slot.produced_token) continue;
      if (!steady_over_) ++result_.steady_output_tokens;
      RequestRecord& q = result_.requests[slot.request];
      if (++s->generated == 1) q.first_token = now;
      if (s->generated < s->output) continue;
      q.finish = now;
      ++finished_;
      dispatch_state_.outstanding_tokens[index] -= q.prompt_tokens + q.output_tokens;
      auto& running = r.state.running;
      running.erase(std::find_if(running.begin(), running.end(),
                                 [&](const Sequence& x) { return x.request == slot.request; }));
    }
  }

  const std::vector<Request>& requests_;
  const ServeSpec& spec_;
  const Dispatcher* dispatch_;
  DispatchState dispatch_state_;
  std::vector<Replica> replicas_;
  std::vector<size_t> order_;  // request indices by arrival, ties in input order
  size_t finished_ = 0;
  bool steady_over_ = false;  // ServeResult::steady_end is set
  frontend::Batch batch_;  // the iteration being costed (reused, not reallocated)
  ServeResult result_;
};

}  // namespace

ServeResult simulate_serving(const std::vector<Request>& requests, const ServeSpec& spec) {
  validate(requests, spec);
  return Simulation(requests, spec).run();
}

}  // namespace lightcode::serve
