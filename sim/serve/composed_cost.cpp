#include "sim/serve/composed_cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "frontend/models/batch.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::serve {
namespace {

constexpr int64_t kMostTokens = limits::kSequenceLength.value;
constexpr int kMostBits = 24;  // kSequenceLength is 2^24: more bits keep every value exact

// A cost being summed, in ps and pj, before the one rounding to a Time.
struct Sum {
  double ps = 0.0, pj = 0.0;
  void add(const IterationEstimate& e, double weight) {
    ps += weight * static_cast<double>(e.time.count_ps());
    pj += weight * e.energy.picojoules();
  }
  void add(const Sum& s, double weight = 1.0) {
    ps += weight * s.ps;
    pj += weight * s.pj;
  }
};

// Where x lies on a grid of the numbers with at most `bits` significant bits: between the
// points lo <= x <= hi, value = (1 - w) at lo + w at hi. bits 0: x itself (an integer).
struct Axis {
  int64_t lo = 0, hi = 0;
  double w = 0.0;
};

// The grid's step at x: 1 below 2^bits, then the value of the bit below the significant ones.
int64_t step_at(int64_t x, int bits) {
  int64_t step = 1;
  while ((x >> bits) >= step) step <<= 1;
  return step;
}

Axis axis(double x, int bits, int64_t most) {
  const auto whole = static_cast<int64_t>(std::floor(x));
  if (bits == 0) return {whole, whole, 0.0};  // callers pass integers then
  const int64_t step = step_at(whole, bits);
  const int64_t lo = whole / step * step;
  const int64_t hi = std::min(lo + step, most);  // x <= most
  if (static_cast<double>(lo) == x || hi <= lo) return {lo, lo, 0.0};
  return {lo, hi, (x - static_cast<double>(lo)) / static_cast<double>(hi - lo)};
}

// The batches asked of the underlying cost, by their two numbers.
frontend::Batch one_sequence(int64_t new_tokens, int64_t context) {
  return frontend::Batch{{{new_tokens, context}}};
}
frontend::Batch decodes_at(int64_t count, int64_t context) {
  frontend::Batch b;
  b.sequences.assign(static_cast<size_t>(count), frontend::SequenceSlot{1, context});
  return b;
}
// `sequences` - 1 one-token sequences at context 0, then one of 1 + extra tokens.
frontend::Batch fresh_rows(int64_t sequences, int64_t extra) {
  frontend::Batch b;
  b.sequences.assign(static_cast<size_t>(sequences - 1), frontend::SequenceSlot{1, 0});
  b.sequences.push_back({1 + extra, 0});
  return b;
}
// Two whole prompts, the longer first.
frontend::Batch two_prompts(int64_t longer, int64_t shorter) {
  return frontend::Batch{{{longer, 0}, {shorter, 0}}};
}

// f (an IterationEstimate or a Sum) interpolated along one axis, or over two (bilinear).
template <class F>
Sum along(const Axis& a, F f) {
  Sum s;
  s.add(f(a.lo), 1.0 - a.w);
  if (a.w > 0.0) s.add(f(a.hi), a.w);
  return s;
}

template <class F>
Sum across(const Axis& a, const Axis& b, F f) {
  return along(a, [&](int64_t x) { return along(b, [&](int64_t y) { return f(x, y); }); });
}

}  // namespace

ComposedIterationCost::ComposedIterationCost(std::shared_ptr<const IterationCost> underlying,
                                             ComposedCostOptions options)
    : underlying_(std::move(underlying)), options_(options) {
  if (!underlying_) throw Error("composed iteration cost: no underlying cost given");
  const std::pair<const char*, int> grids[] = {{"sequence_bits", options_.sequence_bits},
                                               {"context_bits", options_.context_bits},
                                               {"token_bits", options_.token_bits}};
  for (const auto& [name, bits] : grids) {
    if (bits < 0 || bits > kMostBits)
      throw Error(std::string("composed iteration cost: ") + name + " must be 0.." +
                  std::to_string(kMostBits) + ", got " + std::to_string(bits));
  }
}

IterationEstimate ComposedIterationCost::exact(Memo& memo, int64_t a, int64_t b,
                                               frontend::Batch (*make)(int64_t, int64_t)) const {
  const auto key = std::make_pair(a, b);
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  ++misses_;
  const IterationEstimate e = underlying_->estimate(make(a, b));
  memo.emplace(key, e);
  return e;
}

IterationEstimate ComposedIterationCost::estimate(const frontend::Batch& batch) const {
  frontend::validate_batch(batch);
  const int64_t misses_before = misses_;
  const int cb = options_.context_bits, tb = options_.token_bits;
  // g(n, c) on the grids: n - 1 on the token grid (a decode stays a decode), c on the context
  // grid. Each axis's `most` keeps every corner a valid batch (within kSequenceLength).
  const auto g = [&](int64_t n, double c) {
    const Axis context = axis(c, cb, kMostTokens - n);
    const Axis tokens = axis(static_cast<double>(n - 1), tb, kMostTokens - 1 - context.hi);
    return across(tokens, context,
                  [&](int64_t x, int64_t y) { return exact(singles_, 1 + x, y, one_sequence); });
  };
  // F(s, E) over grid axes.
  const auto fresh = [&](const Axis& count, const Axis& rows) {
    return across(count, rows,
                  [&](int64_t s, int64_t e) { return exact(fresh_, s, e, fresh_rows); });
  };

  Sum total;
  Sum floor;  // the costliest member alone
  int64_t decode_count = 0, chunk_count = 0, extra = 0;
  double context_sum = 0.0;
  for (const frontend::SequenceSlot& s : batch.sequences) {
    if (s.new_tokens == 1) {
      ++decode_count;
      context_sum += static_cast<double>(s.context);
    } else {
      ++chunk_count;
      extra += s.new_tokens - 1;
    }
  }
  const auto sequences = static_cast<int64_t>(batch.sequences.size());
  if (sequences == 1) {
    const frontend::SequenceSlot& s = batch.sequences.front();
    total = g(s.new_tokens, static_cast<double>(s.context));
    floor = total;
  } else {
    // Decodes alone: the reference holds them at their mean context. With chunks: every
    // sequence at context 0, the chunks' tokens as one chunk after the rest.
    double mean = 0.0;
    if (chunk_count == 0) {
      mean = context_sum / static_cast<double>(decode_count);
      if (cb == 0) mean = std::ceil(mean);
      const Axis count =
          axis(static_cast<double>(decode_count), options_.sequence_bits, kMostTokens);
      const Axis at = axis(mean, cb, kMostTokens - 1);
      total = across(count, at,
                     [&](int64_t d, int64_t c) { return exact(decodes_, d, c, decodes_at); });
    } else {
      const Axis rows = axis(static_cast<double>(extra), tb, kMostTokens - sequences);
      const Axis count =
          axis(static_cast<double>(sequences), options_.sequence_bits, kMostTokens - rows.hi);
      total = fresh(count, rows);
      // F holds the chunks' tokens as one chunk: fold them in one at a time, each step adding
      // what two fresh prompts of x and y tokens cost beyond {1} and {x + y - 1} (the same rows
      // and logits rows, so only their attention differs).
      int64_t merged = 0;
      for (const frontend::SequenceSlot& s : batch.sequences) {
        if (s.new_tokens == 1) continue;
        if (merged > 0) {
          const int64_t x = std::max(merged, s.new_tokens), y = std::min(merged, s.new_tokens);
          const Axis a = axis(static_cast<double>(x - 1), tb, kMostTokens - 1 - y);
          const Axis b = axis(static_cast<double>(y - 1), tb, kMostTokens - 2 - a.hi);
          total.add(across(a, b, [&](int64_t u, int64_t v) {
            return exact(pairs_, 1 + std::max(u, v), 1 + std::min(u, v), two_prompts);
          }));
          total.add(fresh(axis(2.0, options_.sequence_bits, kMostTokens),
                          axis(static_cast<double>(x + y - 2), tb, kMostTokens - 2)),
                    -1.0);
        }
        merged = merged == 0 ? s.new_tokens : merged + s.new_tokens - 1;
      }
    }
    const Sum at_mean = g(1, mean);
    for (const frontend::SequenceSlot& s : batch.sequences) {
      const Sum own = g(s.new_tokens, static_cast<double>(s.context));
      if (own.ps > floor.ps) floor.ps = own.ps;
      if (own.pj > floor.pj) floor.pj = own.pj;
      if (s.new_tokens == 1) {  // a decode's spread about the reference's context
        total.add(own);
        total.add(at_mean, -1.0);
        continue;
      }
      // A chunk's attention to its context, never negative.
      const Sum at_zero = g(s.new_tokens, 0.0);
      const Sum grown{own.ps - at_zero.ps, own.pj - at_zero.pj};
      if (grown.ps < 0.0 || grown.pj < 0.0) ++clamped_;
      total.add(Sum{std::max(grown.ps, 0.0), std::max(grown.pj, 0.0)});
    }
  }
  if (total.ps < floor.ps || total.pj < floor.pj) ++clamped_;
  if (misses_ == misses_before) ++hits_;
  const double ps = std::max(total.ps, floor.ps);
  if (!(ps < static_cast<double>(Time::max().count_ps())))
    throw Error("composed iteration cost: the time of batch " + frontend::describe_batch(batch) +
                " cannot be represented in ps");
  return IterationEstimate{Time::ps(std::llround(ps)), Energy::pj(std::max(total.pj, floor.pj))};
}

}  // namespace lightcode::serve
