#include "sim/engine/engine.hpp"

#include <systemc>

#include <algorithm>
#include <deque>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>

#include "hw_models/link/sc_link.hpp"
#include "hw_models/sc_service_unit.hpp"
#include "hw_models/unit_modules.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/quantity.hpp"
#include "sim/engine/memory_tracker.hpp"
#include "sim/sched/analytical.hpp"

namespace lightcode::engine {
namespace {

using opt::TaskId;

constexpr std::string_view kVcd = ".vcd";
constexpr std::string_view kArrival = "a transfer's arrival time";

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Time now() { return hw::sc_now(); }

ir::Node as_node(const opt::Task& t) {
  ir::Node n;
  n.kind = t.kind;
  n.kind_name = t.kind_name;
  n.inputs.resize(t.input_types.size());
  n.input_types = t.input_types;
  n.outputs = t.outputs;
  return n;
}

class Engine final : public sc_core::sc_module, public hw::TaskSink, public hw::HopSink {
 public:
  SC_HAS_PROCESS(Engine);
  Engine(const sc_core::sc_module_name& name, const opt::TaskGraph& graph, const hw::System& system,
         const EngineOptions& options, const sched::SchedulingPolicy& policy)
      : sc_core::sc_module(name), tasks_(graph.tasks), kernels_(graph.kernels), system_(system), options_(options),
        memory_(system, options.spill_sram, graph.tasks.size()), policy_(policy),
        dispatcher_(policy.dispatcher(graph, sched::unit_instances(system))) {
    const size_t n = tasks_.size();
    result_.schedule.slots.resize(n);
    // Consumers of every task, as one flat array (use_begin_[t] .. use_begin_[t + 1]).
    pending_.assign(n, 0);
    use_begin_.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      pending_[i] = static_cast<int32_t>(tasks_[i].inputs.size());
      for (const auto& in : tasks_[i].inputs) ++use_begin_[static_cast<size_t>(in.producer) + 1];
    }
    for (size_t i = 0; i < n; ++i) use_begin_[i + 1] += use_begin_[i];
    uses_.resize(use_begin_[n]);
    transfers_.reserve(uses_.size());
    std::vector<uint32_t> fill(use_begin_.begin(), use_begin_.end() - 1);
    for (size_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < tasks_[i].inputs.size(); ++k) {
        uses_[fill[static_cast<size_t>(tasks_[i].inputs[k].producer)]++] = Use{static_cast<TaskId>(i), static_cast<int32_t>(k)};
      }
    }
    elaborate_units();
    if (options_.contention && system_.topology()) elaborate_links();
    planned_instance_.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (pending_[i] == 0) dispatcher_->arrived(static_cast<TaskId>(i), Time::zero());
    }
    SC_METHOD(dispatch);
    sensitive << dispatch_ev_;
    dont_initialize();
    SC_METHOD(arrivals);
    sensitive << arrival_ev_;
    dont_initialize();
  }

  const std::string& failure() const { return failure_; }
  size_t finished() const { return finished_; }

  EventResult take_result() {
    sched::Schedule& schedule = result_.schedule;
    schedule.makespan = Time::zero();
    for (const auto& s : schedule.slots) schedule.makespan = std::max(schedule.makespan, s.end);
    dispatcher_->complete(schedule);
    result_.static_energy_pj = hw::static_energy_pj(system_, schedule.makespan);
    result_.conversion.assign(system_.unit_count(), Time::zero());
    for (size_t t = 0; t < system_.unit_count(); ++t) result_.conversion[t] = modules_[t]->conversion();
    for (const auto& ch : channels_) {
      ChannelStats c;
      c.name = system_.topology()->channel_name(static_cast<int>(&ch - &channels_[0]));
      c.busy = ch->busy_time();
      c.queue_delay = ch->queue_delay();
      c.transfers = ch->transfers();
      c.bytes = ch->bytes();
      result_.links.push_back(c);
    }
    for (size_t i = 0; i < tasks_.size(); ++i) {
      for (const auto& in : tasks_[i].inputs) {
        const auto& route = transfer_route(in.producer, static_cast<TaskId>(i));
        if (route.empty()) continue;
        // Energy of a transfer is the model's; spread it over the channels it crossed.
        for (int c : route) result_.links[static_cast<size_t>(c)].energy_pj += in.transfer.energy.picojoules() / static_cast<double>(route.size());
      }
    }
    memory_.finish(result_);
    for (TransferRecord& r : records_) result_.transfers.push_back(std::move(r));
    return std::move(result_);
  }

  void start_of_simulation() override { dispatch_ev_.notify(sc_core::SC_ZERO_TIME); }

  // A unit finished a task: record it, release its outputs' consumers' data.
  void task_finished(int32_t id, int32_t unit_type, int32_t instance) override {
    guarded([&] { finish_task(id, unit_type, instance); });
  }

  void hop_done(int32_t transfer, int32_t channel, Time start, Time delay) override {
    guarded([&] { finish_hop(transfer, channel, start, delay); });
  }

 private:
  // Every process body runs guarded: an error (a time past the int64 limit, an SRAM overflow)
  // stops the kernel and is reported by simulate(), instead of escaping into SystemC.
  template <class Body>
  void guarded(Body&& body) {
    if (!failure_.empty()) return;
    try {
      body();
    } catch (const std::exception& e) {
      failure_ = e.what();
      sc_core::sc_stop();
    }
  }

  void finish_task(int32_t id, int32_t unit_type, int32_t instance) {
    const auto t = static_cast<size_t>(id);
    result_.schedule.slots[t].end = now();
    busy_[static_cast<size_t>(unit_type)][static_cast<size_t>(instance)] = 0;
    auto& waiting = deferred_[static_cast<size_t>(unit_type)][static_cast<size_t>(instance)];
    if (!waiting.empty()) {
      due_.push_back(waiting.front());
      waiting.pop_front();
    }
    ++finished_;
    dispatcher_->finished(id, now());
    if (!memory_.produced(id, tasks_[t], use_begin_[t + 1] - use_begin_[t], residence_[static_cast<size_t>(tasks_[t].unit)], now())) {
      failure_ = memory_.error();
      sc_core::sc_stop();
      return;
    }
    for (const opt::TaskInput& in : tasks_[t].inputs) memory_.consumed(in.producer, now());
    for (uint32_t u = use_begin_[t]; u < use_begin_[t + 1]; ++u) send(id, uses_[u]);
    dispatch_ev_.notify(sc_core::SC_ZERO_TIME);
  }

  void finish_hop(int32_t transfer, int32_t channel, Time start, Time delay) {
    const Transfer& tr = transfers_[static_cast<size_t>(transfer)];
    if (tr.record >= 0) {
      TransferRecord& r = records_[static_cast<size_t>(tr.record)];
      if (tr.hop == 0) r.start = start;
      r.channel += (r.channel.empty() ? "" : ",") + system_.topology()->channel_name(channel);
    }
    schedule_event(now().plus(delay, kArrival), Event{Event::hop, transfer});
  }

  struct Use {
    TaskId consumer;
    int32_t position;
  };
  struct Transfer {
    TaskId consumer;
    int32_t record;  // index into records_ when transfers are recorded, else -1
    int64_t bytes;
    const std::vector<int>* route;
    size_t hop = 0;
  };
  struct Event {
    enum Kind { arrival, hop, start } kind;
    int32_t index;  // task (arrival, start) or transfer (hop)
  };
  struct Timed {
    Time at;
    int64_t seq;
    Event event;
    bool operator>(const Timed& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  const std::vector<int>& transfer_route(TaskId producer, TaskId consumer) const {
    static const std::vector<int> kNone;
    if (channels_.empty()) return kNone;
    const auto& from = tasks_[static_cast<size_t>(producer)];
    const auto& to = tasks_[static_cast<size_t>(consumer)];
    return system_.topology()->route(from.unit, to.unit);
  }

  // Every unit type's modules come from its family's registered factory (hw::UnitModules).
  void elaborate_units() {
    const size_t types = system_.unit_count();
    modules_.resize(types);
    busy_.resize(types);
    deferred_.resize(types);
    residence_.resize(types);
    for (size_t t = 0; t < types; ++t) {
      const hw::UnitInfo& u = system_.unit(static_cast<hw::UnitType>(t));
      const hw::HardwareModel& model = system_.model(static_cast<hw::UnitType>(t));
      residence_[t] = model.capabilities().residence;
      if (!u.family || !u.family->make_modules) {
        throw Error("unit '" + u.name + "' (family '" + (u.family ? u.family->name : std::string("?")) +
                    "') has no SystemC modules registered: it cannot run at event fidelity");
      }
      const int count = model.unit_count();
      modules_[t] = u.family->make_modules(hw::ModuleContext{u.name, static_cast<int32_t>(t), count, model, u.spec, *this});
      busy_[t].assign(static_cast<size_t>(count), 0);
      deferred_[t].resize(static_cast<size_t>(count));
    }
    if (!options_.vcd_path.empty()) {
      std::string base = options_.vcd_path;  // SystemC appends ".vcd"
      if (ends_with(base, kVcd)) base.resize(base.size() - kVcd.size());
      vcd_ = sc_core::sc_create_vcd_trace_file(base.c_str());
      for (auto& m : modules_) m->trace(vcd_);
    }
  }

  void elaborate_links() {
    const hw::LinkTopology& topo = *system_.topology();
    for (size_t c = 0; c < topo.channels().size(); ++c) {
      const hw::LinkSpec& l = topo.links()[static_cast<size_t>(topo.channels()[c].link)];
      const std::string name = "link_" + topo.unit_names()[static_cast<size_t>(topo.channels()[c].src)] + "_" +
                               topo.unit_names()[static_cast<size_t>(topo.channels()[c].dst)];
      channels_.push_back(std::make_unique<hw::LinkChannel>(name.c_str(), *this, static_cast<int32_t>(c), l));
      if (vcd_) {
        channels_.back()->trace_signals();
        sc_core::sc_trace(vcd_, channels_.back()->busy, name);
      }
    }
  }

 public:
  ~Engine() override {
    if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
  }

 private:
  void schedule_event(Time at, Event e) {
    timeline_.push(Timed{at, seq_++, e});
    hw::notify_after(arrival_ev_, timeline_.top().at - now());
  }

  void arrive(TaskId consumer) {
    if (--pending_[static_cast<size_t>(consumer)] == 0) {
      dispatcher_->arrived(consumer, now());
      dispatch_ev_.notify(sc_core::SC_ZERO_TIME);
    }
  }

  void send(TaskId producer, const Use& use) {
    const opt::TaskInput& in = tasks_[static_cast<size_t>(use.consumer)].inputs[static_cast<size_t>(use.position)];
    const auto& route = transfer_route(producer, use.consumer);
    if (!route.empty() && in.transfer.bytes_read > 0) {
      int32_t record = -1;
      if (options_.record_transfers) {
        records_.push_back(TransferRecord{producer, use.consumer, "", Time::zero(), Time::zero(), in.transfer.bytes_read});
        record = static_cast<int32_t>(records_.size() - 1);
      }
      transfers_.push_back(Transfer{use.consumer, record, in.transfer.bytes_read, &route, 0});
      channels_[static_cast<size_t>(route[0])]->enqueue(static_cast<int32_t>(transfers_.size() - 1), in.transfer.bytes_read);
      return;
    }
    const Time delay = in.transfer.time;
    if (delay == Time::zero()) {
      arrive(use.consumer);
      return;
    }
    const Time arrival = now().plus(delay, kArrival);
    if (options_.record_transfers) {
      result_.transfers.push_back(TransferRecord{producer, use.consumer, "route", now(), arrival, in.transfer.bytes_read});
    }
    schedule_event(arrival, Event{Event::arrival, use.consumer});
  }

  void arrivals() {
    guarded([&] { arrivals_now(); });
  }

  void arrivals_now() {
    const Time at = now();
    while (!timeline_.empty() && timeline_.top().at <= at) {
      const Event e = timeline_.top().event;
      timeline_.pop();
      if (e.kind == Event::arrival) {
        arrive(e.index);
        continue;
      }
      if (e.kind == Event::start) {  // started by dispatch, after this instant's finishes
        due_.push_back(e.index);
        dispatch_ev_.notify(sc_core::SC_ZERO_TIME);
        continue;
      }
      Transfer& tr = transfers_[static_cast<size_t>(e.index)];
      if (++tr.hop < tr.route->size()) {
        channels_[static_cast<size_t>((*tr.route)[tr.hop])]->enqueue(e.index, tr.bytes);
      } else {
        if (tr.record >= 0) records_[static_cast<size_t>(tr.record)].end = at;
        arrive(tr.consumer);
      }
    }
    if (!timeline_.empty()) hw::notify_after(arrival_ev_, timeline_.top().at - at);
  }

  // Every decision comes from the scheduling policy's dispatcher, as in the analytical driver:
  // this runs a delta cycle after an instant's finishes and arrivals have been reported.
  void dispatch() {
    guarded([&] { dispatch_now(); });
  }

  void dispatch_now() {
    std::vector<TaskId> due;
    due.swap(due_);
    for (TaskId id : due) start_or_defer(id, planned_instance_[static_cast<size_t>(id)]);
    while (const auto d = dispatcher_->next(now())) {
      if (d->start <= now()) {
        start_or_defer(d->task, d->instance);
      } else {
        planned_instance_[static_cast<size_t>(d->task)] = d->instance;
        schedule_event(d->start, Event{Event::start, d->task});
      }
    }
  }

  // A decision for an instance that is still finishing a zero-length task at this instant
  // waits for it (a delta cycle: no simulated time passes).
  void start_or_defer(TaskId id, int32_t instance) {
    const auto type = static_cast<size_t>(tasks_[static_cast<size_t>(id)].unit);
    if (instance < 0 || static_cast<size_t>(instance) >= busy_[type].size()) {
      throw Error("scheduler '" + std::string(policy_.name()) + "' chose instance " + std::to_string(instance) +
                  " of unit '" + system_.unit(static_cast<hw::UnitType>(type)).name + "', which has " +
                  std::to_string(busy_[type].size()));
    }
    if (busy_[type][static_cast<size_t>(instance)]) {
      deferred_[type][static_cast<size_t>(instance)].push_back(id);
      return;
    }
    start(id, type, instance);
  }

  void start(TaskId id, size_t type, int32_t instance) {
    const opt::Task& task = tasks_[static_cast<size_t>(id)];
    busy_[type][static_cast<size_t>(instance)] = 1;
    sched::Slot& slot = result_.schedule.slots[static_cast<size_t>(id)];
    slot.instance = instance;
    slot.start = now();
    const ir::FusedKernel* fused = task.fused >= 0 ? &kernels_[static_cast<size_t>(task.fused)] : nullptr;
    modules_[type]->start(instance, id, as_node(task), fused, task.algorithm, task.cost);
  }

  const std::vector<opt::Task>& tasks_;
  const std::vector<ir::FusedKernel>& kernels_;
  const hw::System& system_;
  EngineOptions options_;
  MemoryTracker memory_;
  EventResult result_;
  std::vector<uint32_t> use_begin_;
  std::vector<Use> uses_;
  std::vector<int32_t> pending_;
  std::vector<std::unique_ptr<hw::UnitModules>> modules_;  // per unit type
  std::vector<std::unique_ptr<hw::LinkChannel>> channels_;
  const sched::SchedulingPolicy& policy_;
  std::unique_ptr<sched::Dispatcher> dispatcher_;
  std::vector<int32_t> planned_instance_;          // decided instance of a task starting later
  std::vector<TaskId> due_;                        // planned tasks whose start time has come
  std::vector<std::vector<uint8_t>> busy_;         // per unit type: instance runs a task
  std::vector<std::vector<std::deque<TaskId>>> deferred_;  // per instance: decided, waiting for it
  std::vector<Residence> residence_;
  std::vector<Transfer> transfers_;
  std::vector<TransferRecord> records_;
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> timeline_;
  int64_t seq_ = 0;
  size_t finished_ = 0;
  std::string failure_;
  sc_core::sc_event dispatch_ev_;
  sc_core::sc_event arrival_ev_;
  sc_core::sc_trace_file* vcd_ = nullptr;
};

bool g_elaborated = false;

}  // namespace

EventResult simulate(const opt::TaskGraph& tasks, const hw::System& system, const EngineOptions& options,
                     const sched::SchedulingPolicy& policy) {
  if (g_elaborated) {
    throw Error("the SystemC engine runs once per process (SystemC elaborates once); run each point in its own process");
  }
  g_elaborated = true;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);  // the banner never reaches our output
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  // The waveform goes to a temporary beside the target (SystemC writes "<base>.vcd"), renamed
  // into place once the engine has closed it: a failed or interrupted run leaves no partial VCD.
  std::optional<OutputTemporary> vcd;
  EngineOptions engine_options = options;
  if (!options.vcd_path.empty()) {
    const std::string target = ends_with(options.vcd_path, kVcd) ? options.vcd_path : options.vcd_path + std::string(kVcd);
    vcd.emplace(target, kVcd);
    engine_options.vcd_path = vcd->path();
  }
  EventResult r;
  {
    const auto t0 = std::chrono::steady_clock::now();
    Engine engine("engine", tasks, system, engine_options, policy);
    const auto t1 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const auto t2 = std::chrono::steady_clock::now();
    if (!engine.failure().empty()) throw Error(engine.failure());
    if (engine.finished() != tasks.tasks.size()) {
      throw Error("event engine: " + std::to_string(tasks.tasks.size() - engine.finished()) +
                  " tasks never became ready (a dependency cycle?)");
    }
    r = engine.take_result();
    r.elaborate_seconds = std::chrono::duration<double>(t1 - t0).count();
    r.run_seconds = std::chrono::duration<double>(t2 - t1).count();
  }  // the engine closes the waveform here
  if (vcd) vcd->commit();
  return r;
}

}  // namespace lightcode::engine
