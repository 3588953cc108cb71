#include "frontend/onnx/onnx_import.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "frontend/onnx/onnx_lowering.hpp"
#include "frontend/onnx/onnx_model.hpp"
#include "frontend/tvm/tvm_import.hpp"
#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend {
namespace {

using onnx_detail::ParsedModel;

void check_onnx_length(const std::string& name, const char* what, int64_t length) {
  if (length < 1 || length > limits::kSequenceLength.value) {
    throw Error(SourcePlace{name, 0, 0, ""}, std::string(what) + " must be between 1 and " +
                                                 std::to_string(limits::kSequenceLength.value) +
                                                 " (" + std::string(limits::kSequenceLength.name) +
                                                 "), got " + std::to_string(length));
  }
}

ir::Graph import_onnx_parsed(const ParsedModel& m, const OnnxImportOptions& options) {
  if (options.sequence_length)
    check_onnx_length(m.name, "sequence length", *options.sequence_length);
  // Symbolic axes take the length; a file exported at a fixed length is re-sized as TVM graphs are.
  const onnx_detail::TypedModel typed =
      onnx_detail::infer_types(m, m.symbolic ? options.sequence_length : std::nullopt);
  ir::Graph g = onnx_detail::Lowerer(m, typed).run();
  if (!m.symbolic && options.sequence_length) {
    const std::optional<int64_t> traced =
        options.traced_length ? options.traced_length : detect_traced_length(g);
    if (!traced) {
      throw Error(SourcePlace{m.name, 0, 0, ""},
                  "has no symbolic axis and no input_ids input to tell the length it was exported "
                  "at: export it "
                  "with dynamic_axes (docs/ONNX.md), or give that length (--traced-len)");
    }
    check_onnx_length(m.name, "traced sequence length", *traced);
    g.resize_sequence(*traced, *options.sequence_length);
    g.validate();
  }
  if (options.input_rule != g.input_rule()) {
    g.apply_input_rule(options.input_rule);
    g.validate();
  }
  return g;
}

// Files parsed by this process, most recently used last (as the TVM importer keeps its own):
// a run checks its inputs before its points read them, and each point infers at its length.
struct OnnxFile {
  std::string path;
  std::string sha256;
  std::shared_ptr<const ParsedModel> model;
};
constexpr size_t kOnnxFiles = 4;
std::mutex g_onnx_mutex;
std::vector<OnnxFile> g_onnx_files;

std::shared_ptr<const ParsedModel> onnx_file_model(const std::string& path) {
  if (const std::string sha = reuse_input_file(path); !sha.empty()) {
    const std::lock_guard<std::mutex> lock(g_onnx_mutex);
    for (auto it = g_onnx_files.begin(); it != g_onnx_files.end(); ++it) {
      if (it->path != path || it->sha256 != sha) continue;
      std::rotate(it, it + 1, g_onnx_files.end());
      return g_onnx_files.back().model;
    }
  }
  auto model = std::make_shared<const ParsedModel>(onnx_detail::parse_model(
      read_input_file(path, "ONNX model file", limits::kGraphFileBytes), path));
  if (const std::string sha = reuse_input_file(path); !sha.empty()) {
    const std::lock_guard<std::mutex> lock(g_onnx_mutex);
    g_onnx_files.erase(std::remove_if(g_onnx_files.begin(), g_onnx_files.end(),
                                      [&](const OnnxFile& f) { return f.path == path; }),
                       g_onnx_files.end());
    if (g_onnx_files.size() == kOnnxFiles) g_onnx_files.erase(g_onnx_files.begin());
    g_onnx_files.push_back(OnnxFile{path, sha, model});
  }
  return model;
}

}  // namespace

ir::Graph import_onnx_file(const std::string& path, const OnnxImportOptions& options) {
  return import_onnx_parsed(*onnx_file_model(path), options);
}

ir::Graph import_onnx_bytes(std::string_view bytes, const std::string& name,
                            const OnnxImportOptions& options) {
  return import_onnx_parsed(onnx_detail::parse_model(bytes, name), options);
}

void check_onnx_file(const std::string& path) {
  static_cast<void>(onnx_file_model(path));
}

bool is_onnx_path(std::string_view path) {
  constexpr std::string_view kExtension = ".onnx";
  return path.size() > kExtension.size() &&
         path.substr(path.size() - kExtension.size()) == kExtension;
}

}  // namespace lightcode::frontend
