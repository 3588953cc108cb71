#include "frontend/models/model_config.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <utility>

#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/paths.hpp"

namespace lightcode::frontend {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::pair<std::string_view, ModelFamily>, 3> kFamilies{
    {{"gpt2", ModelFamily::gpt2}, {"llama", ModelFamily::llama}, {"opt", ModelFamily::opt}}};
constexpr std::array<std::pair<std::string_view, NormType>, 2> kNorms{
    {{"layernorm", NormType::layernorm}, {"rmsnorm", NormType::rmsnorm}}};
constexpr std::array<std::pair<std::string_view, Activation>, 3> kActivations{
    {{"gelu_new", Activation::gelu_new}, {"silu", Activation::silu}, {"relu", Activation::relu}}};
// Checkpoint dtypes a transformer is published in; the rest of ir::DType are not model dtypes.
constexpr std::array<std::pair<std::string_view, ir::DType>, 3> kDTypes{
    {{"float32", ir::DType::float32},
     {"float16", ir::DType::float16},
     {"bfloat16", ir::DType::bfloat16}}};

template <typename T, size_t N>
std::string_view name_of(const std::array<std::pair<std::string_view, T>, N>& table, T value) {
  for (const auto& [name, v] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <typename T, size_t N>
T choice(const ConfigNode& map, std::string_view key,
         const std::array<std::pair<std::string_view, T>, N>& table) {
  const ConfigNode n = map.at(key);
  const std::string s = n.as_string();
  std::string allowed;
  for (const auto& [name, v] : table) {
    if (name == s) return v;
    allowed += (allowed.empty() ? "" : " | ") + std::string(name);
  }
  n.fail("'" + s + "' is not one of " + allowed);
}

// Upper bounds keep products of dimensions (KV cache, masks, logits) inside int64.
int64_t bounded(const ConfigNode& map, std::string_view key, int64_t max) {
  const int64_t v = map.positive_int(key);
  if (v > max)
    map.at(key).fail("must be at most " + std::to_string(max) + ", got " + std::to_string(v));
  return v;
}

}  // namespace

std::string_view family_name(ModelFamily f) {
  return name_of(kFamilies, f);
}
std::string_view norm_name(NormType n) {
  return name_of(kNorms, n);
}
std::string_view activation_name(Activation a) {
  return name_of(kActivations, a);
}

namespace {
ModelConfig model_config_from(const ConfigNode& root, const std::string& path);
}  // namespace

ModelConfig load_model_config(const std::string& path) {
  return model_config_from(ConfigNode::load_file(path, "model config"), path);
}

ModelConfig parse_model_config(std::string_view text, const std::string& path) {
  return model_config_from(ConfigNode::parse(text, path, fs::path(path).parent_path().string()), path);
}

namespace {

ModelConfig model_config_from(const ConfigNode& root, const std::string& path) {
  root.allow_only({"source", "model_type", "num_hidden_layers", "hidden_size",
                   "num_attention_heads", "num_key_value_heads", "intermediate_size", "vocab_size",
                   "max_position_embeddings", "norm_type", "hidden_act", "tie_word_embeddings",
                   "torch_dtype"});
  ModelConfig c;
  c.name = fs::path(path).stem().string();
  c.file = path;
  if (root.has("source")) c.source = root.string("source");
  c.model_type = choice(root, "model_type", kFamilies);
  c.num_hidden_layers = bounded(root, "num_hidden_layers", 1024);
  c.hidden_size = bounded(root, "hidden_size", int64_t{1} << 20);
  c.num_attention_heads = bounded(root, "num_attention_heads", 4096);
  c.num_key_value_heads = bounded(root, "num_key_value_heads", 4096);
  c.intermediate_size = bounded(root, "intermediate_size", int64_t{1} << 22);
  c.vocab_size = bounded(root, "vocab_size", int64_t{1} << 24);
  c.max_position_embeddings = bounded(root, "max_position_embeddings", int64_t{1} << 24);
  c.norm_type = choice(root, "norm_type", kNorms);
  c.hidden_act = choice(root, "hidden_act", kActivations);
  c.tie_word_embeddings = root.boolean("tie_word_embeddings");
  c.torch_dtype = choice(root, "torch_dtype", kDTypes);

  const ConfigNode heads = root.at("num_attention_heads");
  if (c.hidden_size % c.num_attention_heads != 0) {
    heads.fail("hidden_size " + std::to_string(c.hidden_size) + " is not divisible by " +
               std::to_string(c.num_attention_heads) + " attention heads");
  }
  const ConfigNode kv = root.at("num_key_value_heads");
  if (c.num_key_value_heads > c.num_attention_heads ||
      c.num_attention_heads % c.num_key_value_heads != 0) {
    kv.fail(std::to_string(c.num_attention_heads) + " attention heads are not divisible by " +
            std::to_string(c.num_key_value_heads) + " key/value heads");
  }
  // GPT-2 and OPT attention has no grouped-query form in Hugging Face.
  if (c.model_type != ModelFamily::llama && c.num_key_value_heads != c.num_attention_heads) {
    kv.fail("model_type " + std::string(family_name(c.model_type)) +
            " has no grouped-query attention: must equal num_attention_heads (" +
            std::to_string(c.num_attention_heads) + ")");
  }
  // Rotary embeddings rotate the two halves of each head.
  if (c.model_type == ModelFamily::llama && c.head_dim() % 2 != 0) {
    heads.fail("llama rotary embeddings need an even head dimension, got " +
               std::to_string(c.head_dim()));
  }
  return c;
}

}  // namespace

std::vector<std::string> builtin_model_names() {
  std::vector<std::string> names;
  const fs::path dir = fs::path(config_root()) / "models";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

ModelConfig builtin_model(const std::string& name) {
  const std::vector<std::string> names = builtin_model_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(
        "unknown built-in model '" + name + "'; available: " +
        (list.empty() ? "none (no " + (fs::path(config_root()) / "models").string() + ")" : list));
  }
  return load_model_config((fs::path(config_root()) / "models" / (name + ".yaml")).string());
}

}  // namespace lightcode::frontend
