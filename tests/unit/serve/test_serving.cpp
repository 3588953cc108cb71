// The serving core: queueing theory (M/D/1 wait, Little's law), token conservation under
// preemption, KV capacity, chunked prefill, dispatch policies and a hand-computed request.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/batching_prefill_first.hpp"
#include "sim/serve/batching_static.hpp"
#include "sim/serve/dispatch_prompt_length.hpp"
#include "sim/serve/generator.hpp"
#include "sim/serve/metrics.hpp"
#include "sim/serve/simulator.hpp"

using namespace lightcode;
using namespace lightcode::serve;

namespace {

std::shared_ptr<const IterationCost> linear(Time fixed, Time per_new, Time per_context = {}) {
  return std::make_shared<LinearIterationCost>(fixed, per_new, per_context, Energy::pj(1.0));
}

ReplicaSpec replica(const std::string& policy, int64_t capacity, int64_t max_batch,
                    int64_t budget = 512) {
  ReplicaSpec r;
  r.kv_capacity_tokens = capacity;
  if (policy == "static") {
    r.batching = std::make_shared<StaticBatching>(max_batch, Time::zero());
  } else {
    r.batching = std::make_shared<ContinuousBatching>(max_batch, budget);
  }
  r.cost = linear(Time::ps(5'000'000), Time::ps(100'000), Time::ps(1'000));
  return r;
}

Request request(int64_t id, Time arrival, int64_t prompt, int64_t output) {
  return Request{id, arrival, prompt, output};
}

// A mixed load that needs chunked prefill (prompts up to 150, budget 64) and preemption.
std::vector<Request> heavy_load() {
  GeneratorSpec g;
  g.rate_per_s = 400.0;
  g.prompt = std::make_shared<UniformLengths>(30, 150);
  g.output = std::make_shared<UniformLengths>(20, 120);
  g.count = 400;
  g.seed = 7;
  return generate_requests(g);
}

// Output tokens per request as counted from the iteration records.
std::vector<int64_t> produced_tokens(const ServeResult& r) {
  std::vector<int64_t> produced(r.requests.size(), 0);
  for (const IterationRecord& it : r.iterations) {
    for (const SlotRecord& s : it.slots) produced[s.request] += s.produced_token ? 1 : 0;
  }
  return produced;
}

void check_run_invariants(const std::vector<Request>& requests, const ServeSpec& spec,
                          const ServeResult& r) {
  const std::vector<int64_t> produced = produced_tokens(r);
  for (size_t i = 0; i < requests.size(); ++i) {
    CHECK(produced[i] == requests[i].output_tokens);
    CHECK(r.requests[i].finish < Time::max());
    CHECK(r.requests[i].first_service >= requests[i].arrival);
    CHECK(r.requests[i].first_token <= r.requests[i].finish);
  }
  for (const IterationRecord& it : r.iterations) {
    CHECK(it.kv_used <= spec.replicas[it.replica].kv_capacity_tokens);
    for (const SlotRecord& s : it.slots) CHECK(it.start >= requests[s.request].arrival);
  }
  for (size_t i = 0; i < r.replicas.size(); ++i)
    CHECK(r.replicas[i].peak_kv <= spec.replicas[i].kv_capacity_tokens);
}

int64_t total_preemptions(const ServeResult& r) {
  int64_t n = 0;
  for (const RequestRecord& q : r.requests) n += q.preemptions;
  return n;
}

}  // namespace

TEST_CASE("M/D/1 waiting time and Little's law with static batching of one") {
  const Time d = Time::ps(1'000'000'000);  // 1 ms per request: one prefill, no decode
  const double rho = 0.7, lambda = rho / d.seconds();
  GeneratorSpec g;
  g.rate_per_s = lambda;
  g.prompt = std::make_shared<FixedLengths>(1);
  g.output = std::make_shared<FixedLengths>(1);
  g.count = 100'000;
  g.seed = 2024;
  const std::vector<Request> requests = generate_requests(g);
  ServeSpec spec;
  ReplicaSpec r;
  r.kv_capacity_tokens = 16;
  r.batching = std::make_shared<StaticBatching>(1, Time::zero());
  r.cost = linear(Time::zero(), d);
  spec.replicas.push_back(r);
  const ServeResult result = simulate_serving(requests, spec);

  double wait_s = 0.0;
  for (const RequestRecord& q : result.requests) wait_s += q.wait().seconds();
  wait_s /= static_cast<double>(requests.size());
  const double md1 = rho * d.seconds() / (2.0 * (1.0 - rho));
  const double md1_error = std::abs(wait_s - md1) / md1;
  MESSAGE("M/D/1 mean wait " << wait_s << " s, theory " << md1 << " s, error " << md1_error);
  CHECK(md1_error < 0.02);

  // Little's law on the waiting line: time-average number waiting = arrival rate x mean wait.
  const double waiting = time_average_queue(result.replicas[0].series, result.run_time);
  const double lambda_run = static_cast<double>(requests.size()) / result.run_time.seconds();
  const double little_error = std::abs(waiting - lambda_run * wait_s) / (lambda_run * wait_s);
  const double little_nominal = std::abs(waiting - lambda * wait_s) / (lambda * wait_s);
  MESSAGE("Little: L_q " << waiting << ", lambda W_q " << lambda_run * wait_s << " (error "
                         << little_error << "; with the nominal lambda " << little_nominal << ")");
  CHECK(little_error < 0.02);
  CHECK(little_nominal < 0.02);

  const ServeSummary s = summarise(result, spec, {});
  CHECK(s.utilisation[0] == doctest::Approx(rho).epsilon(0.02));
  CHECK(s.goodput_requests_per_s == doctest::Approx(lambda_run));
}

TEST_CASE("continuous batching conserves tokens under chunked prefill and preemption") {
  const std::vector<Request> requests = heavy_load();
  ServeSpec spec;
  spec.replicas.push_back(replica("continuous", 300, 8, 64));
  const ServeResult r = simulate_serving(requests, spec);
  check_run_invariants(requests, spec, r);
  const int64_t preemptions = total_preemptions(r);
  MESSAGE("continuous: " << preemptions << " preemptions, peak KV " << r.replicas[0].peak_kv
                         << " of 300");
  CHECK(preemptions > 0);
  bool chunked = false;
  for (const IterationRecord& it : r.iterations) {
    int64_t tokens = 0;
    for (const SlotRecord& s : it.slots) {
      tokens += s.new_tokens;
      chunked = chunked || (!s.decode && s.context > 0);
    }
    CHECK(it.slots.size() <= 8);
    CHECK(tokens <= 64);
  }
  CHECK(chunked);
}

TEST_CASE("static batching conserves tokens when members outgrow the KV cache") {
  std::vector<Request> requests;
  for (int64_t i = 0; i < 40; ++i) requests.push_back(request(i, Time::ps(i * 1000), 20, 60));
  ServeSpec spec;
  spec.replicas.push_back(replica("static", 100, 4));
  const ServeResult r = simulate_serving(requests, spec);
  check_run_invariants(requests, spec, r);
  MESSAGE("static: " << total_preemptions(r) << " preemptions");
  CHECK(total_preemptions(r) > 0);
  for (const IterationRecord& it : r.iterations) CHECK(it.slots.size() <= 4);
}

TEST_CASE("an overfilled KV cache preempts and still completes every request") {
  std::vector<Request> requests;
  for (int64_t i = 0; i < 12; ++i) requests.push_back(request(i, Time::zero(), 10, 200));
  ServeSpec spec;
  spec.replicas.push_back(replica("continuous", 260, 16, 256));
  const ServeResult r = simulate_serving(requests, spec);
  check_run_invariants(requests, spec, r);
  MESSAGE("overfilled: " << total_preemptions(r) << " preemptions");
  CHECK(total_preemptions(r) > 0);
  // A recomputed request prefills its prompt plus the tokens it had generated.
  bool recomputed = false;
  for (const IterationRecord& it : r.iterations) {
    for (const SlotRecord& s : it.slots)
      recomputed = recomputed || (!s.decode && s.context == 0 && s.new_tokens > 10);
  }
  CHECK(recomputed);
}

TEST_CASE("a prompt longer than the token budget is prefilled in chunks") {
  const std::vector<Request> requests = {request(0, Time::zero(), 300, 2)};
  ServeSpec spec;
  spec.replicas.push_back(replica("continuous", 1000, 4, 64));
  const ServeResult r = simulate_serving(requests, spec);
  std::vector<int64_t> sizes, contexts;
  for (const IterationRecord& it : r.iterations) {
    for (const SlotRecord& s : it.slots) {
      if (s.decode) continue;
      sizes.push_back(s.new_tokens);
      contexts.push_back(s.context);
    }
  }
  CHECK(sizes == std::vector<int64_t>{64, 64, 64, 64, 44});
  CHECK(contexts == std::vector<int64_t>{0, 64, 128, 192, 256});
  CHECK(produced_tokens(r)[0] == 2);
}

TEST_CASE("chunk contexts add up for every admission under load") {
  const std::vector<Request> requests = heavy_load();
  ServeSpec spec;
  spec.replicas.push_back(replica("continuous", 300, 8, 64));
  const ServeResult r = simulate_serving(requests, spec);
  std::map<size_t, int64_t> done;  // prefill tokens of the current admission
  for (const IterationRecord& it : r.iterations) {
    for (const SlotRecord& s : it.slots) {
      if (s.decode) continue;
      if (s.context == 0) done[s.request] = 0;
      CHECK(s.context == done[s.request]);
      done[s.request] += s.new_tokens;
    }
  }
}

TEST_CASE("one request on an idle replica has TTFT the prefill time and TPOT the decode time") {
  // fixed 10 us, 1 us per new token, 10 ns per context token.
  const std::vector<Request> requests = {request(0, Time::ps(3'000'000), 100, 5)};
  for (const char* policy : {"static", "continuous"}) {
    ServeSpec spec;
    ReplicaSpec r = replica(policy, 1000, 4, 512);
    r.cost = linear(Time::ps(10'000'000), Time::ps(1'000'000), Time::ps(10'000));
    spec.replicas.push_back(r);
    const ServeResult res = simulate_serving(requests, spec);
    const RequestRecord& q = res.requests[0];
    CHECK(q.ttft() == Time::ps(110'000'000));  // 10 + 100 x 1 us
    // Decodes at contexts 100..103: 11 us + 1.00, 1.01, 1.02, 1.03 us.
    CHECK(q.finish - q.first_token == Time::ps(48'060'000));
    CHECK(q.tpot_s() == doctest::Approx(12.015e-6).epsilon(1e-12));
    CHECK(q.latency() == Time::ps(158'060'000));
  }
}

TEST_CASE("prompt_length dispatch sends each request to the replica its table names") {
  std::vector<Request> requests;
  const int64_t prompts[] = {10, 500, 100, 101, 1, 1000};
  for (int64_t i = 0; i < 6; ++i) requests.push_back(request(i, Time::ps(i), prompts[i], 3));
  ServeSpec spec;
  spec.replicas = {replica("continuous", 2000, 4), replica("continuous", 2000, 4)};
  spec.dispatch = std::make_shared<PromptLengthDispatch>(std::vector<DispatchRange>{{1, 100, 0}, {101, 1000, 1}});
  const ServeResult r = simulate_serving(requests, spec);
  const size_t expected[] = {0, 1, 0, 1, 0, 1};
  for (size_t i = 0; i < 6; ++i) CHECK(r.requests[i].replica == expected[i]);

  requests.push_back(request(6, Time::ps(7), 1001, 3));
  CHECK_THROWS_WITH_AS(simulate_serving(requests, spec), doctest::Contains("request 6"), Error);
}

TEST_CASE("round_robin alternates between replicas") {
  std::vector<Request> requests;
  for (int64_t i = 0; i < 6; ++i) requests.push_back(request(i, Time::ps(i), 8, 2));
  ServeSpec spec;
  spec.replicas = {replica("static", 100, 2), replica("static", 100, 2)};
  const ServeResult r = simulate_serving(requests, spec);
  for (size_t i = 0; i < 6; ++i) CHECK(r.requests[i].replica == i % 2);
}

TEST_CASE("least_outstanding_tokens picks the least loaded replica") {
  // Prefill costs 1 us per token, so A (100 + 10 tokens) is still running at 50 us; by 1 s
  // everything has finished and nothing is outstanding anywhere.
  std::vector<Request> requests = {
      request(0, Time::zero(), 100, 10),               // A: both empty, tie -> 0
      request(1, Time::ps(1), 10, 2),                  // B: 0 holds 110, 1 holds 0 -> 1
      request(2, Time::ps(2), 20, 5),                  // C: 110 vs 12 -> 1
      request(3, Time::ps(50'000'000), 5, 5),          // D: 110 vs at most 37 -> 1
      request(4, Time::ps(1'000'000'000'000), 5, 5)};  // E: all finished, tie -> 0
  ServeSpec spec;
  ReplicaSpec r = replica("continuous", 1000, 4);
  r.cost = linear(Time::ps(1'000'000), Time::ps(1'000'000));
  spec.replicas = {r, r};
  spec.dispatch = make_least_outstanding_tokens();
  const ServeResult res = simulate_serving(requests, spec);
  const size_t expected[] = {0, 1, 1, 1, 0};
  for (size_t i = 0; i < 5; ++i) CHECK(res.requests[i].replica == expected[i]);
  CHECK(res.requests[0].finish > Time::ps(50'000'000));
}

TEST_CASE("a request that can never fit is rejected with its reason and the run goes on") {
  // Request 7 needs 90 + 20 - 1 = 109 KV tokens, replica 0 holds 100; request 8 fits again.
  const std::vector<Request> requests = {request(0, Time::zero(), 10, 5), request(7, Time::ps(5), 90, 20),
                                         request(8, Time::ps(10), 90, 11)};
  ServeSpec spec;
  spec.replicas.push_back(replica("continuous", 100, 4));
  const ServeResult r = simulate_serving(requests, spec);
  CHECK(r.rejected == 1);
  CHECK_FALSE(r.requests[0].rejected());
  CHECK_FALSE(r.requests[2].rejected());
  REQUIRE(r.requests[1].rejected());
  CHECK(r.requests[1].rejection ==
        "needs 109 KV tokens (prompt 90 + output 20 - 1), more than replica 0's capacity of 100");
  CHECK(r.requests[1].first_token == Time::max());  // never served
  CHECK(r.requests[2].finish < Time::max());
  CHECK(r.run_time == std::max(r.requests[0].finish, r.requests[2].finish));
  // The figures are the served requests': the same as a run without the rejected one.
  const ServeResult without = simulate_serving({requests[0], requests[2]}, spec);
  CHECK(r.requests[2].finish == without.requests[1].finish);
  const ServeSummary a = summarise(r, spec, {}), b = summarise(without, spec, {});
  CHECK(a.output_tokens == 16);
  CHECK(a.output_tokens == b.output_tokens);
  CHECK(a.ttft_s.p99 == b.ttft_s.p99);
  CHECK(a.latency_s.p50 == b.latency_s.p50);
  CHECK(a.energy == b.energy);
  // Nothing served: no percentile applies.
  const ServeResult none = simulate_serving({requests[1]}, spec);
  CHECK(none.rejected == 1);
  CHECK(none.run_time == Time::zero());
  CHECK(std::isnan(summarise(none, spec, {}).ttft_s.p50));
  spec.replicas[0].batching = nullptr;
  CHECK_THROWS_WITH_AS(simulate_serving(requests, spec), doctest::Contains("replica 0: no batching policy"), Error);
}

TEST_CASE("the same inputs give the same run") {
  const std::vector<Request> requests = heavy_load();
  ServeSpec spec;
  spec.replicas = {replica("continuous", 300, 8, 64), replica("static", 300, 4)};
  spec.replicas[1].static_power_w = 50.0;
  spec.dispatch = make_least_outstanding_tokens();
  const ServeResult a = simulate_serving(requests, spec), b = simulate_serving(requests, spec);
  REQUIRE(a.iterations.size() == b.iterations.size());
  for (size_t i = 0; i < a.requests.size(); ++i) {
    CHECK(a.requests[i].finish == b.requests[i].finish);
    CHECK(a.requests[i].replica == b.requests[i].replica);
  }
  const ServeSummary sa = summarise(a, spec, {Time::ps(50'000'000'000), Time::ps(2'000'000'000)});
  const ServeSummary sb = summarise(b, spec, {Time::ps(50'000'000'000), Time::ps(2'000'000'000)});
  CHECK(sa.energy == sb.energy);
  CHECK(sa.ttft_s.p99 == sb.ttft_s.p99);
  CHECK(sa.ttft_s.p50 <= sa.ttft_s.p90);
  CHECK(sa.ttft_s.p90 <= sa.ttft_s.p99);
  CHECK(sa.goodput_requests_per_s <= static_cast<double>(requests.size()) / a.run_time.seconds());
  // Static power is charged over the whole run.
  CHECK(sa.energy.joules() >= 50.0 * a.run_time.seconds());
}

TEST_CASE("nearest-rank percentiles are measured values") {
  const std::vector<double> v = {5, 1, 4, 2, 3, 6, 7, 8, 9, 10};
  CHECK(nearest_rank(v, 50) == 5);
  CHECK(nearest_rank(v, 90) == 9);
  CHECK(nearest_rank(v, 99) == 10);
  CHECK(nearest_rank(v, 1) == 1);
}

TEST_CASE("a run without iteration records is the same run") {
  const std::vector<Request> requests = heavy_load();
  ServeSpec spec;
  spec.replicas = {replica("continuous", 300, 8, 64), replica("static", 300, 4)};
  spec.dispatch = make_least_outstanding_tokens();
  const ServeResult kept = simulate_serving(requests, spec);
  spec.keep_iterations = false;
  const ServeResult lean = simulate_serving(requests, spec);
  CHECK(lean.iterations.empty());
  CHECK(lean.iteration_count == static_cast<int64_t>(kept.iterations.size()));
  CHECK(lean.run_time == kept.run_time);
  for (size_t i = 0; i < requests.size(); ++i) {
    CHECK(lean.requests[i].first_token == kept.requests[i].first_token);
    CHECK(lean.requests[i].finish == kept.requests[i].finish);
    CHECK(lean.requests[i].preemptions == kept.requests[i].preemptions);
  }
  for (size_t i = 0; i < spec.replicas.size(); ++i) {
    CHECK(lean.replicas[i].busy == kept.replicas[i].busy);
    CHECK(lean.replicas[i].dynamic_energy == kept.replicas[i].dynamic_energy);
    CHECK(lean.replicas[i].series.size() == kept.replicas[i].series.size());
  }
  CHECK(total_preemptions(lean) > 0);  // the records' bookkeeping under preemption too
}

TEST_CASE("steady state: until the waiting queue first empties, with its tokens, energy and power") {
  // Four requests at time 0 (prompt 10, output 3), two at a time: the first two prefill and
  // decode twice; when they finish the last two are admitted and the queue is empty.
  std::vector<Request> requests;
  for (int64_t i = 0; i < 4; ++i) requests.push_back(request(i, Time::zero(), 10, 3));
  ServeSpec spec;
  ReplicaSpec r = replica("continuous", 1000, 2);
  r.static_power_w = 2.0;
  spec.replicas.push_back(r);
  const ServeResult result = simulate_serving(requests, spec);
  REQUIRE(result.iterations.size() == 6);
  CHECK(result.steady_end == result.iterations[2].end);
  CHECK(result.iterations[3].start == result.steady_end);
  CHECK(result.steady_output_tokens == 6);
  CHECK(result.steady_iterations == 3);
  CHECK(result.steady_sequence_iterations == 6);  // two sequences in each of the three
  const Energy first_three = result.iterations[0].energy + result.iterations[1].energy + result.iterations[2].energy;
  CHECK(result.steady_dynamic_energy.picojoules() == doctest::Approx(first_three.picojoules()));
  const ServeSummary s = summarise(result, spec, SloTargets{});
  const double t = result.steady_end.seconds();
  const double joules = first_three.joules() + 2.0 * t;
  CHECK(s.steady_state_s == t);
  CHECK(s.steady_throughput_tokens_per_s == doctest::Approx(6.0 / t));
  CHECK(s.steady_energy_per_output_token_pj == doctest::Approx(joules * 1e12 / 6.0));
  CHECK(s.steady_power_w == doctest::Approx(joules / t));
  CHECK(s.average_power_w == doctest::Approx(s.energy.joules() / result.run_time.seconds()));
  // All admitted at once: no one waits, no steady state.
  ServeSpec roomy;
  roomy.replicas.push_back(replica("continuous", 1000, 8));
  const ServeSummary none = summarise(simulate_serving(requests, roomy), roomy, SloTargets{});
  CHECK(none.steady_state_s == 0.0);
  CHECK(std::isnan(none.steady_power_w));
}

TEST_CASE("prefill-first batching: admission keeps the watermark free, so a preempted sequence waits") {
  // 40 requests at time 0 (prompts of 50 tokens, outputs of 10 to 49) on room for 1000 KV
  // tokens, 32 at a time. With no watermark every finish admits a prompt that fills the cache to
  // the brim, and the next decode step preempts it again; keeping 5 % free (50 tokens) leaves
  // the running sequences a few steps of growth.
  std::vector<Request> requests;
  for (int64_t i = 0; i < 40; ++i) requests.push_back(request(i, Time::zero(), 50, 10 + (7 * i) % 40));
  auto preemptions = [&](double watermark) {
    ServeSpec spec;
    ReplicaSpec r = replica("continuous", 1000, 32);
    r.batching = std::make_shared<PrefillFirstBatching>(32, 4096, watermark);
    spec.replicas.push_back(r);
    const ServeResult result = simulate_serving(requests, spec);
    check_run_invariants(requests, spec, result);
    return total_preemptions(result);
  };
  const int64_t thrashing = preemptions(0.0);
  const int64_t waiting = preemptions(0.05);
  CHECK(thrashing == 16);
  CHECK(waiting == 3);

  ReplicaState state;
  state.kv_capacity = 100;
  Sequence held;
  held.kv = 50;
  state.running.push_back(held);
  Sequence next;
  next.prompt = 45;
  state.queue.push_back(next);
  CHECK_FALSE(state.admit_head(10));  // 50 + 45 + 10 > 100
  CHECK(state.admit_head(5));         // exactly full with 5 left free
  CHECK(state.kv_used() == 95);
}

TEST_CASE("prefill-first batching: whole prompts within the token budget, never beside decodes") {
  // Prompts of 100 tokens, a budget of 250: two prompts a prefill iteration; decodes wait while
  // anyone can be admitted.
  std::vector<Request> requests;
  for (int64_t i = 0; i < 5; ++i) requests.push_back(request(i, Time::zero(), 100, 4));
  ServeSpec spec;
  ReplicaSpec r = replica("continuous", 10'000, 4);
  r.batching = std::make_shared<PrefillFirstBatching>(4, 250);
  spec.replicas.push_back(r);
  const ServeResult result = simulate_serving(requests, spec);
  check_run_invariants(requests, spec, result);
  for (const IterationRecord& it : result.iterations) {
    const bool prefill = !it.slots.front().decode;
    int64_t tokens = 0;
    for (const SlotRecord& s : it.slots) {
      CHECK(s.decode != prefill);  // all prefill or all decode
      if (prefill) {
        CHECK(s.new_tokens == 100);  // whole
        CHECK(s.context == 0);
      }
      tokens += s.new_tokens;
    }
    if (prefill) CHECK(tokens <= 250);
    CHECK(it.slots.size() <= 4);
  }
  // Iterations: {0, 1} prefilled, {2, 3} prefilled (the batch is full at 4), 3 decodes of four
  // (the first token came from the prefill), then 4 is admitted and prefilled, 3 decodes of it.
  REQUIRE(result.iterations.size() >= 3);
  CHECK(result.iterations[0].slots.size() == 2);
  CHECK(result.iterations[1].slots.size() == 2);
  CHECK(result.iterations[2].slots.size() == 4);
  CHECK(result.iterations[2].slots.front().decode);
  CHECK(result.iterations.size() == 2 + 3 + 1 + 3);
}

TEST_CASE("host overhead: each iteration lasts its cost plus the engine's time per iteration and per sequence") {
  std::vector<Request> requests;
  for (int64_t i = 0; i < 3; ++i) requests.push_back(request(i, Time::zero(), 20, 5));
  ServeSpec plain, slow;
  plain.replicas.push_back(replica("continuous", 1000, 4));
  ReplicaSpec r = replica("continuous", 1000, 4);
  r.iteration_overhead = Time::ps(1'000'000);
  r.sequence_overhead = Time::ps(10'000);
  slow.replicas.push_back(r);
  const ServeResult a = simulate_serving(requests, plain);
  const ServeResult b = simulate_serving(requests, slow);
  REQUIRE(a.iterations.size() == b.iterations.size());  // the same batches: no arrival moves them
  for (size_t i = 0; i < a.iterations.size(); ++i) {
    const auto slots = static_cast<int64_t>(b.iterations[i].slots.size());
    CHECK(b.iterations[i].end - b.iterations[i].start ==
          (a.iterations[i].end - a.iterations[i].start) + Time::ps(1'000'000) + Time::ps(10'000) * slots);
    CHECK(b.iterations[i].energy.picojoules() == a.iterations[i].energy.picojoules());  // time only
  }
  CHECK(b.replicas[0].busy == a.replicas[0].busy);  // the devices' busy time excludes it
}

TEST_CASE("power during host overhead: charged above the static power for exactly the host time") {
  std::vector<Request> requests;
  for (int64_t i = 0; i < 3; ++i) requests.push_back(request(i, Time::zero(), 20, 5));
  ReplicaSpec r = replica("continuous", 1000, 4);
  r.iteration_overhead = Time::ps(1'000'000);
  r.sequence_overhead = Time::ps(10'000);
  ServeSpec idle, drawing;
  idle.replicas.push_back(r);
  r.overhead_extra_power_w = 50.0;
  drawing.replicas.push_back(r);
  const ServeResult a = simulate_serving(requests, idle);
  const ServeResult b = simulate_serving(requests, drawing);
  REQUIRE(a.iterations.size() == b.iterations.size());
  for (size_t i = 0; i < a.iterations.size(); ++i) {
    const auto slots = static_cast<int64_t>(b.iterations[i].slots.size());
    const Time host = Time::ps(1'000'000) + Time::ps(10'000) * slots;
    CHECK(b.iterations[i].end - b.iterations[i].start == a.iterations[i].end - a.iterations[i].start);
    CHECK(b.iterations[i].energy.picojoules() ==
          doctest::Approx(a.iterations[i].energy.picojoules() + 50.0 * host.seconds() * 1e12));
  }
  r.overhead_extra_power_w = -1.0;
  ServeSpec bad;
  bad.replicas.push_back(r);
  CHECK_THROWS_WITH(simulate_serving(requests, bad),
                    "replica 0: power during host overhead must be >= its static power");
}
