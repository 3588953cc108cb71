#pragma once
// One iteration's batch for the built-in decoders (build_iteration in model_builder.hpp): the
// sequences that advance together, each with the tokens it adds and the tokens already in its
// KV cache. A whole prompt is {prompt, 0}, a prefill chunk {chunk, tokens of the prompt done
// before it}, a decode step {1, KV length}. Counts are tokens.
#include <cstdint>
#include <string>
#include <vector>

namespace lightcode::frontend {

struct SequenceSlot {
  int64_t new_tokens = 0;  // tokens this iteration feeds through the model, >= 1
  int64_t context = 0;     // tokens already in this sequence's KV cache, >= 0
};

struct Batch {
  std::vector<SequenceSlot> sequences;
};

// lightcode::Error naming the first offending sequence by index: an empty batch, new_tokens < 1,
// context < 0, a sequence's or the batch's total new tokens, or a sequence's context + new
// tokens, above limits::kSequenceLength.
void validate_batch(const Batch& batch);
// Sum of new_tokens: the rows of the batch's shared matrix products. Call validate_batch first.
int64_t total_new_tokens(const Batch& batch);
// "<new>+<context>" per sequence, comma-separated: "128+0,1+500,1+37".
std::string describe_batch(const Batch& batch);

}  // namespace lightcode::frontend
