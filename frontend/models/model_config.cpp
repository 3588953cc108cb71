#include "frontend/models/model_config.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>

#include "sim/core/config.hpp"
#include "sim/core/error.hpp"
#include "sim/core/params.hpp"
#include "sim/core/paths.hpp"

namespace lightcode::frontend {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::pair<std::string_view, ModelFamily>, 5> kFamilies{{{"gpt2", ModelFamily::gpt2},
                                                                             {"llama", ModelFamily::llama},
                                                                             {"opt", ModelFamily::opt},
                                                                             {"bert", ModelFamily::bert},
                                                                             {"vit", ModelFamily::vit}}};
constexpr std::array<std::pair<std::string_view, NormType>, 2> kNorms{
    {{"layernorm", NormType::layernorm}, {"rmsnorm", NormType::rmsnorm}}};
constexpr std::array<std::pair<std::string_view, Activation>, 4> kActivations{{{"gelu_new", Activation::gelu_new},
                                                                               {"gelu", Activation::gelu},
                                                                               {"silu", Activation::silu},
                                                                               {"relu", Activation::relu}}};
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
std::vector<std::string> names_of(const std::array<std::pair<std::string_view, T>, N>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.first);
  return names;
}

// `name` was checked against names_of(table) by Params.
template <typename T, size_t N>
T value_of(const std::array<std::pair<std::string_view, T>, N>& table, const std::string& name) {
  for (const auto& [n, v] : table) {
    if (n == name) return v;
  }
  throw std::logic_error("'" + name + "' is not in the table it was checked against");
}

// Upper bounds keep products of dimensions (KV cache, masks, logits) inside int64.
constexpr Limit kLayers{"model_layers", 1024, "layers", "num_hidden_layers of a model config"};
constexpr Limit kWidth{"model_width", int64_t{1} << 20, "elements", "hidden_size of a model config"};
constexpr Limit kHeads{"model_heads", 4096, "heads", "attention or key/value heads of a model config"};
constexpr Limit kFfnWidth{"model_ffn_width", int64_t{1} << 22, "elements",
                          "intermediate_size of a model config"};
constexpr Limit kVocab{"model_vocab", int64_t{1} << 24, "tokens", "vocab_size of a model config"};
constexpr Limit kPositions{"model_positions", int64_t{1} << 24, "positions",
                           "max_position_embeddings of a model config"};
constexpr Limit kPatch{"model_patch", 1024, "pixels", "patch_size of a vit model config"};
constexpr Limit kChannels{"model_channels", 1024, "channels", "num_channels of a vit model config"};

// A key only some families read: required for them, an unread-key error for the rest (the
// usage record reports a key read by nobody).
std::optional<int64_t> family_count(const Params& p, const ConfigNode& root, const std::string& key, bool reads,
                                    const std::string& why) {
  if (!reads) return std::nullopt;
  const std::optional<int64_t> v = p.count_if(key);
  if (!v) root.fail("missing key '" + key + "' (" + why + ")");
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
  ConfigUsage usage;
  const Params p(root, model_config_table(), usage);
  ModelConfig c;
  c.name = fs::path(path).stem().string();
  c.file = path;
  c.source = p.text_if("source").value_or("");
  c.model_type = value_of(kFamilies, p.choice("model_type"));
  c.num_hidden_layers = p.count("num_hidden_layers");
  c.hidden_size = p.count("hidden_size");
  c.num_attention_heads = p.count("num_attention_heads");
  c.num_key_value_heads = p.count("num_key_value_heads");
  c.intermediate_size = p.count("intermediate_size");
  const bool vit = c.model_type == ModelFamily::vit;
  // A vit reads pixels, not tokens: no vocabulary. Only OPT's graph has a position table (a
  // weight whose rows are the positions); the others fold positions into a constant.
  c.vocab_size = family_count(p, root, "vocab_size", !vit, "rows of the token embedding").value_or(0);
  c.max_position_embeddings =
      family_count(p, root, "max_position_embeddings", c.model_type == ModelFamily::opt,
                   "model_type opt: rows of its learned position table")
          .value_or(0);
  c.patch_size = family_count(p, root, "patch_size", vit, "model_type vit: the patch side").value_or(0);
  c.num_channels = family_count(p, root, "num_channels", vit, "model_type vit: image channels").value_or(0);
  c.norm_type = value_of(kNorms, p.choice("norm_type"));
  c.hidden_act = value_of(kActivations, p.choice("hidden_act"));
  // Encoders here end at the last hidden state: no lm_head to tie.
  if (!c.encoder()) {
    if (!p.has("tie_word_embeddings")) root.fail("missing key 'tie_word_embeddings' (lm_head shares the token embedding's weight)");
    c.tie_word_embeddings = p.boolean("tie_word_embeddings");
  }
  c.torch_dtype = value_of(kDTypes, p.choice("torch_dtype"));

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
  check_all_read(root, model_config_table(), usage,
                 "the " + std::string(family_name(c.model_type)) + " model family");
  return c;
}

}  // namespace

const ParamTable& model_config_table() {
  static const ParamTable table{
      "model",
      "A transformer architecture in Hugging Face `config.json` terms "
      "(`configs/models/<name>.yaml`, or its JSON subset); the file stem names the model. "
      "`model_type` picks the family and its graph builder; a key the family does not read is "
      "an error.",
      {
          Param::meta("source").doc("where the numbers come from (a Hugging Face model id)"),
          Param::choice("model_type", names_of(kFamilies)).required().doc("the family: which graph is built"),
          Param::count("num_hidden_layers", kLayers).required().doc("transformer blocks"),
          Param::count("hidden_size", kWidth).required().doc("model width; a multiple of num_attention_heads"),
          Param::count("num_attention_heads", kHeads)
              .required()
              .doc("query heads; llama's rotary embeddings need an even head dimension"),
          Param::count("num_key_value_heads", kHeads)
              .required()
              .doc("key/value heads, dividing num_attention_heads; gpt2 and opt have no "
                   "grouped-query form: equal to num_attention_heads"),
          Param::count("intermediate_size", kFfnWidth).required().doc("feed-forward (MLP) width"),
          Param::count("vocab_size", kVocab).doc(
              "rows of the token embedding, width of the logits; required but for vit (pixels, no tokens)"),
          Param::count("max_position_embeddings", kPositions)
              .doc("opt only, required there: rows of the learned position table (plus OPT's "
                   "offset of 2); gpt2 (positions fold to a constant per length) and llama "
                   "(rotary) do not read it"),
          Param::choice("norm_type", names_of(kNorms)).required().doc("the blocks' and the final norm"),
          Param::choice("hidden_act", names_of(kActivations)).required().doc("the MLP's activation (ACT2FN name)"),
          Param::count("patch_size", kPatch).doc("vit only, required there: the image patch's side in pixels"),
          Param::count("num_channels", kChannels).doc("vit only, required there: image channels"),
          Param::boolean("tie_word_embeddings").doc(
              "decoders only, required there: lm_head shares the token embedding's weight (encoders "
              "end at the last hidden state)"),
          Param::choice("torch_dtype", names_of(kDTypes))
              .required()
              .doc("the checkpoint's dtype, and the dtype the built graph computes in"),
      }};
  return table;
}

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
