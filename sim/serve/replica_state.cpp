#include "sim/serve/replica_state.hpp"

namespace lightcode::serve {

int64_t ReplicaState::kv_used() const {
  int64_t used = 0;
  for (const Sequence& s : running) used += s.kv;
  return used;
}

Sequence* ReplicaState::find_running(size_t request) {
  for (Sequence& s : running) {
    if (s.request == request) return &s;
  }
  return nullptr;
}

bool ReplicaState::admit_head(int64_t keep_free) {
  if (queue.empty()) return false;
  Sequence s = queue.front();
  s.prefill_target = s.prompt + s.generated;
  if (kv_used() + s.prefill_target + keep_free > kv_capacity) return false;
  s.prefilled = 0;
  s.kv = s.prefill_target;
  queue.pop_front();
  running.push_back(s);
  return true;
}

size_t ReplicaState::make_room_for_decodes() {
  for (;;) {
    size_t decoding = 0;
    for (const Sequence& s : running) decoding += s.decoding() ? 1 : 0;
    if (running.empty() || kv_used() + static_cast<int64_t>(decoding) <= kv_capacity)
      return decoding;
    Sequence victim = running.back();
    running.pop_back();
    victim.kv = 0;
    victim.prefilled = 0;
    victim.prefill_target = 0;
    preempted.push_back(victim.request);
    queue.push_front(victim);
  }
}

Slot ReplicaState::decode_slot(Sequence& s) {
  Slot slot{s.request, 1, s.kv, true};
  s.kv += 1;
  return slot;
}

}  // namespace lightcode::serve
