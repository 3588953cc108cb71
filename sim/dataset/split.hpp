#pragma once
// Train / validation / test splits by model family, so that a test set holds models of
// families a learned model never saw. A point's family is its model's: a built-in model's
// config `model_type` (gpt2, llama, opt, bert, vit: frontend/models/model_config.hpp), a graph
// file's stem ("gpt2_prefill_seq5_graph"). A family's split is explicit when the options name it
// (validation or test; named in both is an error), else decided by its name alone:
// u = the first 8 bytes of SHA-256(family) read as a big-endian integer, / 2^64;
// train when u < 1/3, validation when u < 2/3, test otherwise. So a family is in exactly one
// split, the same in every dataset and on every machine, whatever else the dataset holds.
// With the hash rule the built-in families fall as: gpt2 0.139, bert 0.198, vit 0.001 train;
// opt 0.372 validation; llama 0.986 test (tests/unit/dataset checks these).
#include <string>
#include <string_view>
#include <vector>

namespace lightcode::dataset {

enum class Split { train, validation, test };
std::string_view split_name(Split s);

struct SplitRule {
  std::vector<std::string> validation;  // families put in validation explicitly
  std::vector<std::string> test;        // ... in test
};

// u in [0, 1) for `family` (see above).
double family_hash(std::string_view family);
// The family's split and whether the rule named it.
Split split_of(std::string_view family, const SplitRule& rule, bool* explicit_choice = nullptr);
// The rule in words, for the file's `split_rule` attribute.
std::string split_rule_text(const SplitRule& rule);
// lightcode::Error when a family is named in both lists.
void check_split_rule(const SplitRule& rule);

// A model's family and short name (its built-in name, or a graph file's stem). Throws
// lightcode::Error for an unknown built-in model.
struct ModelFamily {
  std::string family;
  std::string name;
};
ModelFamily model_family(const std::string& model);

}  // namespace lightcode::dataset
