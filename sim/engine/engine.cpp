#include "sim/engine/engine.hpp"

#include <systemc>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "hw_models/link/sc_link.hpp"
#include "hw_models/sc_service_unit.hpp"
#include "hw_models/unit_modules.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_file.hpp"
#include "sim/core/quantity.hpp"
#include "sim/engine/graph_state.hpp"

namespace lightcode::engine {
namespace {

using opt::TaskId;
using Event = GraphState::Event;

constexpr std::string_view kVcd = ".vcd";
constexpr std::string_view kArrival = "a transfer's arrival time";

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// `t` as the op a unit module plans from, written over `n` so that its buffers are reused.
const ir::Node& as_node(const opt::Task& t, ir::Node& n) {
  n.kind = t.kind;
  n.kind_name = t.kind_name;
  n.inputs.resize(t.input_types.size());
  n.input_types = t.input_types;
  n.outputs = t.outputs;
  return n;
}

}  // namespace

// The elaborated hardware (unit modules, link channels, which instances are busy) and the
// graph it runs now (GraphState, replaced for every graph). Named, not in an anonymous
// namespace, because Session::Impl holds it.
class EventEngine final : public sc_core::sc_module, public hw::TaskSink, public hw::HopSink {
 public:
  SC_HAS_PROCESS(EventEngine);
  EventEngine(const sc_core::sc_module_name& name, const hw::System& system, const EngineOptions& options,
              const sched::SchedulingPolicy& policy)
      : sc_core::sc_module(name), system_(system), options_(options), policy_(policy) {
    elaborate_units();
    if (options_.contention && system_.topology()) elaborate_links();
    SC_METHOD(dispatch);
    sensitive << dispatch_ev_;
    dont_initialize();
    SC_METHOD(arrivals);
    sensitive << arrival_ev_;
    dont_initialize();
  }

  ~EventEngine() override {
    if (vcd_) sc_core::sc_close_vcd_trace_file(vcd_);
  }

  const std::string& failure() const { return failure_; }
  size_t finished() const { return g_->finished; }

  // Makes `graph` the one to run from `origin` (absolute, not before the current simulated
  // time) on: the next sc_start() runs it. Precondition: the previous graph, if any, has been
  // taken (take_result).
  void load(const opt::TaskGraph& graph, Time origin) {
    for (const auto& instances : busy_) {
      for (const uint8_t b : instances) {
        if (b) throw std::logic_error("event engine: a unit is busy between two graphs");
      }
    }
    g_ = std::make_unique<GraphState>(graph, system_, options_.spill_sram, policy_, origin);
    dispatch_pending_ = false;
    arrivals_due_.reset();
    conversion_at_start_.clear();
    for (const auto& m : modules_) conversion_at_start_.push_back(m->conversion());
    links_at_start_ = channel_totals();
    hw::notify_after(dispatch_ev_, origin - hw::sc_now());
  }

  EventResult take_result() {
    GraphState& g = *g_;
    EventResult& result = g.result;
    sched::Schedule& schedule = result.schedule;
    schedule.makespan = Time::zero();
    for (const auto& s : schedule.slots) schedule.makespan = std::max(schedule.makespan, s.end);
    g.dispatcher->complete(schedule);
    result.static_energy_pj = hw::static_energy_pj(system_, schedule.makespan);
    result.conversion.assign(system_.unit_count(), Time::zero());
    for (size_t t = 0; t < system_.unit_count(); ++t) {
      result.conversion[t] = modules_[t]->conversion() - conversion_at_start_[t];
    }
    // The channels count over the whole session: this graph's figures are the differences.
    result.links = channel_totals();
    for (size_t c = 0; c < result.links.size(); ++c) {
      ChannelStats& now = result.links[c];
      const ChannelStats& before = links_at_start_[c];
      now.busy = now.busy - before.busy;
      now.queue_delay = now.queue_delay - before.queue_delay;
      now.transfers -= before.transfers;
      now.bytes -= before.bytes;
    }
    for (size_t i = 0; i < g.tasks.size(); ++i) {
      for (const auto& in : g.tasks[i].inputs) {
        const auto& route = transfer_route(in.producer, static_cast<TaskId>(i));
        if (route.empty()) continue;
        // Energy of a transfer is the model's; spread it over the channels it crossed.
        for (int c : route) {
          result.links[static_cast<size_t>(c)].energy_pj +=
              in.transfer.energy.picojoules() / static_cast<double>(route.size());
        }
      }
    }
    g.memory.finish(result);
    for (TransferRecord& r : g.records) result.transfers.push_back(std::move(r));
    EventResult out = std::move(result);
    g_.reset();
    return out;
  }

  // A unit finished a task: record it, release its outputs' consumers' data.
  void task_finished(int32_t id, int32_t unit_type, int32_t instance) override {
    guarded([&] { finish_task(id, unit_type, instance); });
  }

  void hop_done(int32_t transfer, int32_t channel, Time start, Time delay) override {
    guarded([&] { finish_hop(transfer, channel, start, delay); });
  }

 private:
  // The running graph's clock: simulated time since it started, read from the kernel once per
  // process activation (guarded()), not at every use.
  Time now() const { return now_; }

  // Every process body runs guarded: an error (a time past the int64 limit, an SRAM overflow)
  // stops the kernel and is reported by Session::run(), instead of escaping into SystemC.
  template <class Body>
  void guarded(Body&& body) {
    if (!failure_.empty()) return;
    now_ = hw::sc_now() - g_->origin;
    try {
      body();
    } catch (const std::exception& e) {
      failure_ = e.what();
      sc_core::sc_stop();
    }
  }

  std::vector<ChannelStats> channel_totals() const {
    std::vector<ChannelStats> out;
    for (size_t c = 0; c < channels_.size(); ++c) {
      const hw::LinkChannel& ch = *channels_[c];
      out.push_back(ChannelStats{system_.topology()->channel_name(static_cast<int>(c)), ch.busy_time(),
                                 ch.queue_delay(), ch.transfers(), ch.bytes(), 0.0});
    }
    return out;
  }

  void finish_task(int32_t id, int32_t unit_type, int32_t instance) {
    GraphState& g = *g_;
    const auto t = static_cast<size_t>(id);
    g.result.schedule.slots[t].end = now();
    busy_[static_cast<size_t>(unit_type)][static_cast<size_t>(instance)] = 0;
    auto& waiting = g.deferred[static_cast<size_t>(unit_type)][static_cast<size_t>(instance)];
    if (!waiting.empty()) {
      g.due.push_back(waiting.front());
      waiting.pop_front();
    }
    ++g.finished;
    g.dispatcher->finished(id, now());
    if (!g.memory.produced(id, g.tasks[t], g.consumers(t), residence_[static_cast<size_t>(g.tasks[t].unit)], now())) {
      failure_ = g.memory.error();
      sc_core::sc_stop();
      return;
    }
    for (const opt::TaskInput& in : g.tasks[t].inputs) g.memory.consumed(in.producer, now());
    for (uint32_t u = g.use_begin[t]; u < g.use_begin[t + 1]; ++u) send(id, g.uses[u]);
    dispatch_next_delta();
  }

  void finish_hop(int32_t transfer, int32_t channel, Time start, Time delay) {
    GraphState& g = *g_;
    const GraphState::Transfer& tr = g.transfers[static_cast<size_t>(transfer)];
    if (tr.record >= 0) {
      TransferRecord& r = g.records[static_cast<size_t>(tr.record)];
      if (tr.hop == 0) r.start = start - g.origin;  // the channel reports absolute times
      r.channel += (r.channel.empty() ? "" : ",") + system_.topology()->channel_name(channel);
    }
    schedule_event(now().plus(delay, kArrival), Event{Event::hop, transfer});
  }

  const std::vector<int>& transfer_route(TaskId producer, TaskId consumer) const {
    static const std::vector<int> kNone;
    if (channels_.empty()) return kNone;
    const auto& from = g_->tasks[static_cast<size_t>(producer)];
    const auto& to = g_->tasks[static_cast<size_t>(consumer)];
    return system_.topology()->route(from.unit, to.unit);
  }

  // Every unit type's modules come from its family's registered factory (hw::UnitModules).
  void elaborate_units() {
    const size_t types = system_.unit_count();
    modules_.resize(types);
    busy_.resize(types);
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

  // The dispatch process runs in the next delta cycle; asking again before it ran changes
  // nothing, so the kernel is asked once.
  void dispatch_next_delta() {
    if (dispatch_pending_) return;
    dispatch_pending_ = true;
    dispatch_ev_.notify(sc_core::SC_ZERO_TIME);
  }

  void schedule_event(Time at, Event e) {
    GraphState& g = *g_;
    g.timeline.push(GraphState::Timed{at, g.seq++, e});
    wake_arrivals_at(g.timeline.top().at);
  }

  // The arrivals process runs at `at` (on the graph's clock) unless it is already due by
  // then: the kernel keeps only the earliest notification of an event anyway.
  void wake_arrivals_at(Time at) {
    if (arrivals_due_ && *arrivals_due_ <= at) return;
    arrivals_due_ = at;
    hw::notify_after(arrival_ev_, at - now());
  }

  void arrive(TaskId consumer) {
    if (--g_->pending[static_cast<size_t>(consumer)] == 0) {
      g_->dispatcher->arrived(consumer, now());
      dispatch_next_delta();
    }
  }

  void send(TaskId producer, const GraphState::Use& use) {
    GraphState& g = *g_;
    const opt::TaskInput& in = g.tasks[static_cast<size_t>(use.consumer)].inputs[static_cast<size_t>(use.position)];
    const auto& route = transfer_route(producer, use.consumer);
    if (!route.empty() && in.transfer.bytes_read > 0) {
      int32_t record = -1;
      if (options_.record_transfers) {
        g.records.push_back(TransferRecord{producer, use.consumer, "", Time::zero(), Time::zero(), in.transfer.bytes_read});
        record = static_cast<int32_t>(g.records.size() - 1);
      }
      g.transfers.push_back(GraphState::Transfer{use.consumer, record, in.transfer.bytes_read, &route, 0});
      channels_[static_cast<size_t>(route[0])]->enqueue(static_cast<int32_t>(g.transfers.size() - 1), in.transfer.bytes_read);
      return;
    }
    const Time delay = in.transfer.time;
    if (delay == Time::zero()) {
      arrive(use.consumer);
      return;
    }
    const Time arrival = now().plus(delay, kArrival);
    if (options_.record_transfers) {
      g.result.transfers.push_back(TransferRecord{producer, use.consumer, "route", now(), arrival, in.transfer.bytes_read});
    }
    schedule_event(arrival, Event{Event::arrival, use.consumer});
  }

  void arrivals() {
    arrivals_due_.reset();  // the one notification has fired
    guarded([&] { arrivals_now(); });
  }

  void arrivals_now() {
    GraphState& g = *g_;
    const Time at = now();
    while (!g.timeline.empty() && g.timeline.top().at <= at) {
      const Event e = g.timeline.top().event;
      g.timeline.pop();
      if (e.kind == Event::arrival) {
        arrive(e.index);
        continue;
      }
      if (e.kind == Event::start) {  // started by dispatch, after this instant's finishes
        g.due.push_back(e.index);
        dispatch_next_delta();
        continue;
      }
      GraphState::Transfer& tr = g.transfers[static_cast<size_t>(e.index)];
      if (++tr.hop < tr.route->size()) {
        channels_[static_cast<size_t>((*tr.route)[tr.hop])]->enqueue(e.index, tr.bytes);
      } else {
        if (tr.record >= 0) g.records[static_cast<size_t>(tr.record)].end = at;
        arrive(tr.consumer);
      }
    }
    if (!g.timeline.empty()) wake_arrivals_at(g.timeline.top().at);
  }

  // Every decision comes from the scheduling policy's dispatcher, as in the analytical driver:
  // this runs a delta cycle after an instant's finishes and arrivals have been reported.
  void dispatch() {
    dispatch_pending_ = false;
    guarded([&] { dispatch_now(); });
  }

  void dispatch_now() {
    GraphState& g = *g_;
    std::vector<TaskId> due;
    due.swap(g.due);
    for (TaskId id : due) start_or_defer(id, g.planned_instance[static_cast<size_t>(id)]);
    while (const auto d = g.dispatcher->next(now())) {
      if (d->start <= now()) {
        start_or_defer(d->task, d->instance);
      } else {
        g.planned_instance[static_cast<size_t>(d->task)] = d->instance;
        schedule_event(d->start, Event{Event::start, d->task});
      }
    }
  }

  // A decision for an instance that is still finishing a zero-length task at this instant
  // waits for it (a delta cycle: no simulated time passes).
  void start_or_defer(TaskId id, int32_t instance) {
    const auto type = static_cast<size_t>(g_->tasks[static_cast<size_t>(id)].unit);
    if (instance < 0 || static_cast<size_t>(instance) >= busy_[type].size()) {
      throw Error("scheduler '" + std::string(policy_.name()) + "' chose instance " + std::to_string(instance) +
                  " of unit '" + system_.unit(static_cast<hw::UnitType>(type)).name + "', which has " +
                  std::to_string(busy_[type].size()));
    }
    if (busy_[type][static_cast<size_t>(instance)]) {
      g_->deferred[type][static_cast<size_t>(instance)].push_back(id);
      return;
    }
    start(id, type, instance);
  }

  void start(TaskId id, size_t type, int32_t instance) {
    const opt::Task& task = g_->tasks[static_cast<size_t>(id)];
    busy_[type][static_cast<size_t>(instance)] = 1;
    sched::Slot& slot = g_->result.schedule.slots[static_cast<size_t>(id)];
    slot.instance = instance;
    slot.start = now();
    const ir::FusedKernel* fused = task.fused >= 0 ? &g_->graph.kernels[static_cast<size_t>(task.fused)] : nullptr;
    hw::UnitModules& modules = *modules_[type];
    modules.start(instance, id, modules.reads_op() ? as_node(task, op_) : kNoOp, fused, task.algorithm, task.cost);
  }

  const hw::System& system_;
  EngineOptions options_;
  const sched::SchedulingPolicy& policy_;
  std::vector<std::unique_ptr<hw::UnitModules>> modules_;  // per unit type
  std::vector<std::unique_ptr<hw::LinkChannel>> channels_;
  std::vector<std::vector<uint8_t>> busy_;  // per unit type: instance runs a task
  std::vector<Residence> residence_;
  std::unique_ptr<GraphState> g_;           // the graph running now
  std::vector<Time> conversion_at_start_;   // per unit type, when the graph started
  std::vector<ChannelStats> links_at_start_;
  std::string failure_;
  sc_core::sc_event dispatch_ev_;
  sc_core::sc_event arrival_ev_;
  Time now_;                         // now(), set as each process activation begins
  bool dispatch_pending_ = false;    // dispatch_ev_ is notified for the next delta cycle
  std::optional<Time> arrivals_due_;  // when arrival_ev_ is notified for, if it is
  ir::Node op_;                      // the task being started, for modules that read it
  inline static const ir::Node kNoOp{};
  sc_core::sc_trace_file* vcd_ = nullptr;
};

namespace {
bool g_elaborated = false;
}  // namespace

struct Session::Impl {
  // The waveform goes to a temporary beside the target (SystemC writes "<base>.vcd"), renamed
  // into place by close(): a failed or interrupted run leaves no partial VCD.
  std::optional<OutputTemporary> vcd;
  std::unique_ptr<EventEngine> engine;
  double elaborate_seconds = 0.0;
  bool first = true;
  Time next_start;      // the last graph's start + its makespan
  std::string stopped;  // why the session can run no more; "" while it can
};

Session::Session(const hw::System& system, const EngineOptions& options, const sched::SchedulingPolicy& policy)
    : impl_(std::make_unique<Impl>()) {
  if (g_elaborated) {
    throw Error("the SystemC engine runs once per process (SystemC elaborates once); run each point in its own process");
  }
  g_elaborated = true;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);  // the banner never reaches our output
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  EngineOptions engine_options = options;
  if (!options.vcd_path.empty()) {
    const std::string target = ends_with(options.vcd_path, kVcd) ? options.vcd_path : options.vcd_path + std::string(kVcd);
    impl_->vcd.emplace(target, kVcd);
    engine_options.vcd_path = impl_->vcd->path();
  }
  const auto t0 = std::chrono::steady_clock::now();
  impl_->engine = std::make_unique<EventEngine>("engine", system, engine_options, policy);
  impl_->elaborate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Session::~Session() = default;

Time Session::now() const { return impl_->next_start; }

EventResult Session::run(const opt::TaskGraph& tasks) {
  Impl& s = *impl_;
  if (!s.stopped.empty()) throw Error("event engine: no further graph can run: " + s.stopped);
  EventEngine& engine = *s.engine;
  const auto t0 = std::chrono::steady_clock::now();
  engine.load(tasks, s.next_start);
  // An empty graph has nothing to simulate (and an idle sc_start() only warns).
  if (!tasks.tasks.empty()) sc_core::sc_start();
  const auto t1 = std::chrono::steady_clock::now();
  if (!engine.failure().empty()) {
    s.stopped = engine.failure();  // sc_stop() was called: the kernel cannot resume
    throw Error(engine.failure());
  }
  if (engine.finished() != tasks.tasks.size()) {
    s.stopped = std::to_string(tasks.tasks.size() - engine.finished()) +
                " tasks never became ready (a dependency cycle?)";
    throw Error("event engine: " + s.stopped);
  }
  EventResult r = engine.take_result();
  r.elaborate_seconds = s.first ? s.elaborate_seconds : 0.0;
  r.run_seconds = std::chrono::duration<double>(t1 - t0).count();
  s.first = false;
  s.next_start = r.start.plus(r.schedule.makespan, "the stream's time");
  return r;
}

void Session::close() {
  impl_->stopped = "the session is closed";
  impl_->engine.reset();  // closes the waveform
  if (impl_->vcd) {
    impl_->vcd->commit();
    impl_->vcd.reset();
  }
}

EventResult simulate(const opt::TaskGraph& tasks, const hw::System& system, const EngineOptions& options,
                     const sched::SchedulingPolicy& policy) {
  return simulate_stream({&tasks}, system, options, policy).front();
}

std::vector<EventResult> simulate_stream(const std::vector<const opt::TaskGraph*>& iterations,
                                         const hw::System& system, const EngineOptions& options,
                                         const sched::SchedulingPolicy& policy) {
  Session session(system, options, policy);
  std::vector<EventResult> out;
  out.reserve(iterations.size());
  for (const opt::TaskGraph* graph : iterations) out.push_back(session.run(*graph));
  session.close();
  return out;
}

}  // namespace lightcode::engine
