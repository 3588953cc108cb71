#pragma once
// A transformer architecture in Hugging Face config terms (configs/models/<name>.yaml), read
// through model_config_table(): the keys a family reads are required, unknown keys are errors,
// and so is a key the family does not read (max_position_embeddings outside opt), so that no
// value in a file is silently ignored. Values are range-checked and checked for consistency
// (hidden_size divisible by heads, heads by KV heads); every error names the file, line and
// key. `torch_dtype` is the checkpoint's dtype and the dtype the built graph computes in (the
// TVM reference graphs were traced after a float32 load).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/ir/dtype.hpp"

namespace lightcode {
struct ParamTable;
}  // namespace lightcode

namespace lightcode::frontend {

// gpt2, llama, opt: decoders (prefill, decode); bert, vit: encoders (prefill only).
enum class ModelFamily : uint8_t { gpt2, llama, opt, bert, vit };
enum class NormType : uint8_t { layernorm, rmsnorm };
enum class Activation : uint8_t { gelu_new, gelu, silu, relu };

std::string_view family_name(ModelFamily f);
std::string_view norm_name(NormType n);
std::string_view activation_name(Activation a);

struct ModelConfig {
  std::string name;    // file stem: "gpt2", "llama-2-7b"; names the graph source
  std::string file;    // where it was loaded from ("" when built in code)
  std::string source;  // where the numbers come from (a Hugging Face model id); optional

  ModelFamily model_type = ModelFamily::gpt2;
  int64_t num_hidden_layers = 0;
  int64_t hidden_size = 0;
  int64_t num_attention_heads = 0;
  int64_t num_key_value_heads = 0;  // == heads unless grouped-query attention
  int64_t intermediate_size = 0;    // feed-forward width
  int64_t vocab_size = 0;
  int64_t max_position_embeddings = 0;  // opt only (its position table); 0 for other families
  int64_t patch_size = 0;               // vit only: the image patch's side in pixels
  int64_t num_channels = 0;             // vit only: image channels
  NormType norm_type = NormType::layernorm;
  Activation hidden_act = Activation::gelu_new;
  bool tie_word_embeddings = false;
  ir::DType torch_dtype = ir::DType::float32;

  int64_t head_dim() const { return hidden_size / num_attention_heads; }
  bool encoder() const { return model_type == ModelFamily::bert || model_type == ModelFamily::vit; }
};

// Every key of a model config file, with its type, bounds and doc (docs/CONFIG.md).
const ParamTable& model_config_table();

// A Hugging Face style config (YAML, or its JSON subset), strict: unknown keys, bad values and
// dimensions above their bounds and keys the family does not read are lightcode::Error naming
// file, line and key.
ModelConfig load_model_config(const std::string& path);
// The same from text; `path` names it in errors.
ModelConfig parse_model_config(std::string_view text, const std::string& path);
// <config_root()>/models/<name>.yaml; an unknown name throws lightcode::Error listing the
// available names.
ModelConfig builtin_model(const std::string& name);
std::vector<std::string> builtin_model_names();  // sorted

}  // namespace lightcode::frontend
