#include "sim/dataset/split.hpp"

#include <algorithm>
#include <filesystem>

#include "frontend/load_model.hpp"
#include "frontend/models/model_config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sha256.hpp"

namespace lightcode::dataset {
namespace {

bool named(const std::vector<std::string>& list, std::string_view family) {
  return std::find(list.begin(), list.end(), family) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string s;
  for (const std::string& f : list) s += (s.empty() ? "" : ", ") + f;
  return s.empty() ? "none" : s;
}

}  // namespace

std::string_view split_name(Split s) {
  switch (s) {
    case Split::train:
      return "train";
    case Split::validation:
      return "validation";
    case Split::test:
      return "test";
  }
  return "";
}

double family_hash(std::string_view family) {
  Sha256 h;
  h.update(family);
  const std::array<uint8_t, 32> d = h.finish();
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | d[i];
  // 2^-64 exactly; the double nearest v (53 bits) is all a split threshold needs.
  return static_cast<double>(v) * 0x1p-64;
}

Split split_of(std::string_view family, const SplitRule& rule, bool* explicit_choice) {
  const bool validation = named(rule.validation, family), test = named(rule.test, family);
  if (explicit_choice) *explicit_choice = validation || test;
  if (validation) return Split::validation;
  if (test) return Split::test;
  const double u = family_hash(family);
  return u < 1.0 / 3.0 ? Split::train : u < 2.0 / 3.0 ? Split::validation : Split::test;
}

void check_split_rule(const SplitRule& rule) {
  for (const std::string& f : rule.validation) {
    if (f.empty()) throw Error("an empty family name in the validation families");
    if (named(rule.test, f))
      throw Error("family '" + f +
                  "' is named for both validation and test: a family is in one split");
  }
  for (const std::string& f : rule.test) {
    if (f.empty()) throw Error("an empty family name in the test families");
  }
}

std::string split_rule_text(const SplitRule& rule) {
  return "by model family (a built-in model's model_type, a graph file's stem); validation: " +
         joined(rule.validation) + "; test: " + joined(rule.test) +
         "; any other family by u = first 8 bytes of SHA-256(family), big-endian, / 2^64: train if "
         "u < 1/3, "
         "validation if u < 2/3, else test";
}

ModelFamily model_family(const std::string& model) {
  if (frontend::is_graph_file(model)) {
    const std::string stem = std::filesystem::path(model).stem().string();
    return {stem, stem};
  }
  const frontend::ModelConfig config = frontend::builtin_model(model);
  return {std::string(frontend::family_name(config.model_type)), model};
}

}  // namespace lightcode::dataset
