#pragma once
// Serving helpers for tests/unit/serve/test_composed_cost.cpp, test_layer_pricing.cpp and
// tests/bench/bench_serve.cpp:
// random batches of the shapes continuous batching forms (max_batch 32, token budget 512), the
// relative error of an iteration cost against an exact one on them, and the output tokens a
// run's iteration records produced per request. Deterministic: the same seed gives the same
// batches (serve::Rng).
//   decodes     1..32 decodes, contexts uniform on 1..2048
//   one_chunk   0..31 decodes as above and one prefill chunk of 2..(512 - decodes) tokens, a
//               whole prompt (context 0) or a continuation at context 1..1536, even odds
//   two_chunks  0..30 decodes and two such chunks sharing what is left of the budget
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "frontend/models/batch.hpp"
#include "sim/serve/iteration_cost.hpp"
#include "sim/serve/requests.hpp"
#include "sim/serve/simulator.hpp"

namespace lightcode::test {

enum class BatchKind { decodes, one_chunk, two_chunks };

inline std::vector<frontend::Batch> random_batches(BatchKind kind, int count, uint64_t seed) {
  serve::Rng rng(seed);
  const auto uniform = [&](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng.uniform() * static_cast<double>(hi - lo + 1));
  };
  const int chunks = static_cast<int>(kind);
  std::vector<frontend::Batch> out;
  for (int k = 0; k < count; ++k) {
    frontend::Batch b;
    const int64_t decodes = uniform(chunks == 0 ? 1 : 0, 32 - chunks);
    for (int64_t i = 0; i < decodes; ++i) b.sequences.push_back({1, uniform(1, 2048)});
    int64_t budget = 512 - decodes;
    for (int c = 0; c < chunks; ++c) {
      const int64_t n = uniform(2, std::max<int64_t>(2, budget / (chunks - c)));
      budget -= n;
      const bool whole_prompt = rng.uniform() < 0.5;
      b.sequences.push_back({n, whole_prompt ? 0 : uniform(1, 1536)});
    }
    out.push_back(std::move(b));
  }
  return out;
}

// Batches for comparing layer pricings (tests/unit/serve/test_layer_pricing.cpp, bench_serve):
// `per_kind` of each: decodes, whole prompts (1..4 prompts of 8..512 tokens, context 0), and
// decodes with one prefill chunk and with two (random_batches' kinds); at most `most` sequences
// in a batch (the last ones dropped).
inline std::vector<frontend::Batch> layer_test_batches(size_t per_kind, size_t most, uint64_t seed) {
  std::vector<frontend::Batch> out;
  const auto capped = [&](frontend::Batch b) {
    if (b.sequences.size() > most) b.sequences.resize(most);
    out.push_back(std::move(b));
  };
  for (frontend::Batch& b : random_batches(BatchKind::decodes, static_cast<int>(per_kind), seed)) capped(std::move(b));
  serve::Rng rng(seed);
  for (size_t k = 0; k < per_kind; ++k) {
    frontend::Batch b;
    const auto prompts = 1 + static_cast<int64_t>(rng.uniform() * 4.0);
    for (int64_t i = 0; i < prompts; ++i) b.sequences.push_back({8 + static_cast<int64_t>(rng.uniform() * 505.0), 0});
    capped(std::move(b));
  }
  for (BatchKind kind : {BatchKind::one_chunk, BatchKind::two_chunks}) {
    for (frontend::Batch& b : random_batches(kind, static_cast<int>(per_kind), seed)) {
      // Keep the chunks (at the end) when capping: drop decodes from the front.
      if (b.sequences.size() > most) b.sequences.erase(b.sequences.begin(), b.sequences.end() - static_cast<long>(most));
      out.push_back(std::move(b));
    }
  }
  return out;
}

// Relative errors |estimate - exact| / exact over the batches, of time and of energy.
struct CostError {
  double max_time = 0.0, mean_time = 0.0;
  double max_energy = 0.0, mean_energy = 0.0;
};

inline CostError cost_error(const serve::IterationCost& estimate, const serve::IterationCost& exact,
                            const std::vector<frontend::Batch>& batches) {
  CostError e;
  for (const frontend::Batch& b : batches) {
    const serve::IterationEstimate x = exact.estimate(b);
    const serve::IterationEstimate y = estimate.estimate(b);
    const double t = std::abs(static_cast<double>(y.time.count_ps() - x.time.count_ps())) /
                     static_cast<double>(x.time.count_ps());
    const double j =
        std::abs(y.energy.picojoules() - x.energy.picojoules()) / x.energy.picojoules();
    e.max_time = std::max(e.max_time, t);
    e.max_energy = std::max(e.max_energy, j);
    e.mean_time += t / static_cast<double>(batches.size());
    e.mean_energy += j / static_cast<double>(batches.size());
  }
  return e;
}

// Output tokens per request (in request order) as the iteration records count them.
inline std::vector<int64_t> produced_tokens(const serve::ServeResult& r) {
  std::vector<int64_t> produced(r.requests.size(), 0);
  for (const serve::IterationRecord& it : r.iterations) {
    for (const serve::SlotRecord& s : it.slots) produced[s.request] += s.produced_token ? 1 : 0;
  }
  return produced;
}

}  // namespace lightcode::test
