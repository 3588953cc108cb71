#pragma once
// One replica's sequences during a serving simulation, and the KV-cache bookkeeping every
// batching policy shares. Counts are tokens.
//
// KV accounting: a sequence holds KV for the tokens fed through the model. On admission it
// reserves its whole prefill target (prompt + output tokens generated before, when it is
// recomputed after a preemption), so chunked prefill never needs more mid-way; each decode
// step reserves one more token (the one it feeds). A request's peak is therefore
// prompt + output - 1 tokens (its last token is produced, never fed back); one whose peak
// exceeds the capacity can never run (an error, checked before the simulation).
// Preemption frees the most recently admitted sequence and puts it at the head of the queue;
// it is recomputed on re-admission (prompt + generated tokens prefilled again).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/core/quantity.hpp"

namespace lightcode::serve {

struct Sequence {
  size_t request = 0;  // index into the simulation's request list
  Time arrival;
  int64_t prompt = 0, output = 0;
  int64_t generated = 0;       // output tokens produced so far (kept across preemptions)
  int64_t prefill_target = 0;  // tokens to prefill for this admission: prompt + generated
  int64_t prefilled = 0;       // of prefill_target
  int64_t kv = 0;              // KV tokens held (reserved)

  bool decoding() const { return prefilled == prefill_target; }
};

// One sequence's share of an iteration. `decode`: one new token fed at context `context`;
// otherwise a prefill chunk of `new_tokens` whose context is the target's tokens before it.
struct Slot {
  size_t request = 0;
  int64_t new_tokens = 0;
  int64_t context = 0;
  bool decode = false;
};

struct ReplicaState {
  int64_t kv_capacity = 0;
  std::deque<Sequence> queue;     // waiting: dispatched (or preempted), not admitted
  std::vector<Sequence> running;  // admitted, in admission order: back() is the most recent
  std::vector<size_t> preempted;  // requests preempted while forming the current iteration

  int64_t kv_used() const;
  Sequence* find_running(size_t request);
  // Admits the head of the queue if its prefill target fits beside what is held with
  // `keep_free` tokens still free (a policy's watermark); false if not.
  bool admit_head(int64_t keep_free = 0);
  // Preempts the most recently admitted sequences until every decoding one can grow by one
  // token; returns the number of decoding sequences left.
  size_t make_room_for_decodes();
  // The decode slot of `s`, reserving the token it feeds.
  static Slot decode_slot(Sequence& s);
};

}  // namespace lightcode::serve
