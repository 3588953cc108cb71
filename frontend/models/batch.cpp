#include "frontend/models/batch.hpp"

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend {

void validate_batch(const Batch& batch) {
  const int64_t limit = limits::kSequenceLength.value;
  const std::string over = " exceeds the limit " + std::string(limits::kSequenceLength.name) +
                           " = " + std::to_string(limit) + " tokens";
  if (batch.sequences.empty()) throw Error("batch: no sequences; an iteration needs at least one");
  int64_t total = 0;
  for (size_t i = 0; i < batch.sequences.size(); ++i) {
    const SequenceSlot& s = batch.sequences[i];
    const std::string who = "batch sequence " + std::to_string(i) + ": ";
    if (s.new_tokens < 1) {
      throw Error(who + "new_tokens must be at least 1, got " + std::to_string(s.new_tokens));
    }
    if (s.context < 0) {
      throw Error(who + "context must be non-negative, got " + std::to_string(s.context));
    }
    // Each operand is at most the limit, so neither sum below can overflow int64.
    if (s.new_tokens > limit)
      throw Error(who + "new_tokens " + std::to_string(s.new_tokens) + over);
    if (s.context > limit) throw Error(who + "context " + std::to_string(s.context) + over);
    if (s.context + s.new_tokens > limit) {
      throw Error(who + "context + new_tokens = " + std::to_string(s.context + s.new_tokens) +
                  over);
    }
    total += s.new_tokens;
    if (total > limit) {
      throw Error(who + "the batch's new tokens up to here, " + std::to_string(total) + "," + over);
    }
  }
}

int64_t total_new_tokens(const Batch& batch) {
  int64_t total = 0;
  for (const SequenceSlot& s : batch.sequences) total += s.new_tokens;
  return total;
}

std::string describe_batch(const Batch& batch) {
  std::string out;
  for (const SequenceSlot& s : batch.sequences) {
    if (!out.empty()) out += ",";
    out += std::to_string(s.new_tokens) + "+" + std::to_string(s.context);
  }
  return out;
}

}  // namespace lightcode::frontend
