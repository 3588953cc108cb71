#include "frontend/tvm/tvm_import.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/limits.hpp"

namespace lightcode::frontend {
namespace {

using nlohmann::json;

std::atomic<uint64_t> g_parses{0};

// A JSON value in an error message: scalars as written, containers by kind (dumping a deeply
// nested or huge value would itself recurse or allocate without bound).
std::string brief(const json& v) {
  if (v.is_array()) return "an array of " + std::to_string(v.size());
  if (v.is_object()) return "an object";
  std::string s = v.dump();
  if (s.size() > 64) s = s.substr(0, 61) + "...";
  return s;
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw Error(SourcePlace{file_, 0, 0, path}, message);
  }

  const json& member(const json& obj, const char* key, const std::string& path) const {
    if (!obj.is_object()) fail(path, "expected a JSON object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(path, std::string("missing key \"") + key + "\"");
    return *it;
  }

  const json& array(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "expected a JSON array");
    return v;
  }

  int64_t integer(const json& v, const std::string& path) const {
    if (v.is_number_integer()) return v.get<int64_t>();
    // TVM writes attribute numbers as strings ("num_outputs": "3").
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-')) {
        size_t used = 0;
        try {
          const long long x = std::stoll(s, &used);
          if (used == s.size()) return x;
        } catch (const std::exception&) {
        }
      }
    }
    fail(path, "expected an integer, found " + brief(v));
  }

  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, found " + brief(v));
    const std::string& s = v.get_ref<const std::string&>();
    if (static_cast<int64_t>(s.size()) > limits::kNameBytes.value) {
      fail(path, "a string of " + std::to_string(s.size()) + " bytes is above the limit of " +
                     std::to_string(limits::kNameBytes.value) + " (" + std::string(limits::kNameBytes.name) + ")");
    }
    return s;
  }

  // attrs.<key> is a pair [type tag, list].
  const json& tagged_list(const json& attrs, const char* key, const char* tag) const {
    const std::string path = std::string("attrs.") + key;
    const json& pair = array(member(attrs, key, "attrs"), path);
    if (pair.size() != 2 || !pair[0].is_string() || pair[0].get<std::string>() != tag) {
      fail(path, std::string("expected [\"") + tag + "\", [...]]");
    }
    return array(pair[1], path + "[1]");
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

SourcePlace place_of_byte(const std::string& file, std::string_view text, size_t byte) {
  int line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return SourcePlace{file, line, column, ""};
}

ir::MemoryRole memory_role(const std::string& name) {
  // TVM names bound parameters p0, p1, ...; everything else is fed at run time.
  if (name.size() > 1 && name[0] == 'p') {
    bool digits = true;
    for (size_t i = 1; i < name.size(); ++i) digits = digits && std::isdigit(static_cast<unsigned char>(name[i]));
    if (digits) return ir::MemoryRole::parameter;
  }
  return ir::MemoryRole::input;
}

}  // namespace

namespace {

// The graph as traced (every input its own entry), validated: what a file's bytes give whatever
// the options.
ir::Graph parse_tvm_json(std::string_view text, const std::string& name) {
  ++g_parses;
  json doc;
  // Nesting is bounded while parsing: graph JSON is five levels deep.
  const json::parser_callback_t depth_guard = [&name](int depth, json::parse_event_t, json&) {
    if (depth > limits::kConfigDepth.value) {
      throw Error(SourcePlace{name, 0, 0, ""}, "JSON nested more than " + std::to_string(limits::kConfigDepth.value) +
                                                   " levels deep (" + std::string(limits::kConfigDepth.name) + ")");
    }
    return true;
  };
  try {
    doc = json::parse(text.begin(), text.end(), depth_guard);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw Error(place_of_byte(name, text, e.byte > 0 ? e.byte - 1 : 0), "malformed JSON: " + what);
  } catch (const json::exception& e) {
    // Not a syntax error but a value JSON allows and a double cannot hold ("1e400").
    std::string what = e.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    throw Error(SourcePlace{name, 0, 0, ""}, "malformed JSON: " + what);
  }
  const Reader r(name);
  const json& nodes = r.array(r.member(doc, "nodes", ""), "nodes");
  const json& attrs = r.member(doc, "attrs", "");
  const json& shapes = r.tagged_list(attrs, "shape", "list_shape");
  const json& dltypes = r.tagged_list(attrs, "dltype", "list_str");
  const size_t n = nodes.size();
  if (static_cast<int64_t>(n) > limits::kGraphNodes.value) {
    r.fail("nodes", "has " + std::to_string(n) + " nodes, above the limit of " + std::to_string(limits::kGraphNodes.value) +
                        " (" + std::string(limits::kGraphNodes.name) + ")");
  }
  // An entry count per node (outputs, inputs) within limits::kNodeEdges.
  auto edge_count = [&r](int64_t count, const std::string& path, const char* what) {
    if (count < 1 || count > limits::kNodeEdges.value) {
      r.fail(path, std::string(what) + " " + std::to_string(count) + " is not between 1 and " +
                       std::to_string(limits::kNodeEdges.value) + " (" + std::string(limits::kNodeEdges.name) + ")");
    }
    return count;
  };

  // node_row_ptr[i] is node i's first entry; absent in some exporters, then 1 + outputs.
  std::vector<int64_t> row(n + 1, 0);
  if (doc.contains("node_row_ptr")) {
    const json& rp = r.array(doc["node_row_ptr"], "node_row_ptr");
    if (rp.size() != n + 1) {
      r.fail("node_row_ptr", "has " + std::to_string(rp.size()) + " entries, expected " +
                                 std::to_string(n + 1) + " (one per node plus one)");
    }
    for (size_t i = 0; i <= n; ++i) {
      const std::string path = "node_row_ptr[" + std::to_string(i) + "]";
      row[i] = r.integer(rp[i], path);
      if (i > 0 && (row[i] <= row[i - 1] || row[i] - row[i - 1] > limits::kNodeEdges.value)) {
        r.fail(path, "must grow by 1 to " + std::to_string(limits::kNodeEdges.value) + " entries per node (" +
                         std::to_string(row[i - 1]) + " then " + std::to_string(row[i]) + ")");
      }
    }
    if (row[0] != 0) r.fail("node_row_ptr[0]", "must be 0");
  } else {
    for (size_t i = 0; i < n; ++i) {
      int64_t outs = 1;
      if (nodes[i].is_object() && nodes[i].contains("attrs") && nodes[i]["attrs"].is_object() &&
          nodes[i]["attrs"].contains("num_outputs")) {
        const std::string path = "nodes[" + std::to_string(i) + "].attrs.num_outputs";
        outs = edge_count(r.integer(nodes[i]["attrs"]["num_outputs"], path), path, "num_outputs");
      }
      row[i + 1] = row[i] + outs;
    }
  }
  const auto entries = static_cast<size_t>(row[n]);
  if (shapes.size() < entries) {
    r.fail("attrs.shape", "lists " + std::to_string(shapes.size()) +
                              " entry shapes but node_row_ptr says the graph has " +
                              std::to_string(entries) + " entries");
  }
  if (dltypes.size() < entries) {
    r.fail("attrs.dltype", "lists " + std::to_string(dltypes.size()) +
                               " entry dtypes but node_row_ptr says the graph has " +
                               std::to_string(entries) + " entries");
  }

  auto entry_type = [&](size_t e) {
    const std::string spath = "attrs.shape[1][" + std::to_string(e) + "]";
    const json& dims = r.array(shapes[e], spath);
    ir::TensorType t;
    try {
      for (size_t d = 0; d < dims.size(); ++d) {
        const int64_t v = r.integer(dims[d], spath + "[" + std::to_string(d) + "]");
        if (v < 0) r.fail(spath, "negative dimension " + std::to_string(v));
        t.shape.push_back(v);
      }
    } catch (const std::length_error&) {
      r.fail(spath, "rank " + std::to_string(dims.size()) + " exceeds the supported " +
                        std::to_string(ir::Shape::kMaxRank));
    }
    const std::string dpath = "attrs.dltype[1][" + std::to_string(e) + "]";
    const std::string dt = r.string(dltypes[e], dpath);
    const auto parsed = ir::parse_dtype(dt);
    if (!parsed) r.fail(dpath, "unknown dtype \"" + dt + "\"");
    t.dtype = *parsed;
    return t;
  };

  ir::Graph g;
  g.set_source(name);
  g.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string path = "nodes[" + std::to_string(i) + "]";
    const json& jn = nodes[i];
    ir::Node node;
    node.name = r.string(r.member(jn, "name", path), path + ".name");
    const std::string op = r.string(r.member(jn, "op", path), path + ".op");
    for (int64_t e = row[i]; e < row[i + 1]; ++e) node.outputs.push_back(entry_type(static_cast<size_t>(e)));
    if (op == "null") {
      node.kind = ir::OpKind::memory;
      node.kind_name = "memory";
      node.role = memory_role(node.name);
    } else if (op == "tvm_op") {
      const json& a = r.member(jn, "attrs", path);
      const std::string func = r.string(r.member(a, "func_name", path + ".attrs"),
                                        path + ".attrs.func_name");
      node.kind_name = std::string(ir::kind_from_func_name(func));
      node.kind = ir::parse_op_kind(node.kind_name);
      for (auto it = a.begin(); it != a.end(); ++it) {
        if (!it.value().is_string()) continue;
        const std::string apath = path + ".attrs." + it.key().substr(0, 64);
        if (static_cast<int64_t>(it.key().size()) > limits::kNameBytes.value) r.fail(apath, "attribute name too long");
        node.attrs.push_back({it.key(), r.string(it.value(), apath)});
      }
      if (a.contains("num_outputs")) {
        const int64_t declared = r.integer(a["num_outputs"], path + ".attrs.num_outputs");
        if (declared != row[i + 1] - row[i]) {
          r.fail(path + ".attrs.num_outputs",
                 "says " + std::to_string(declared) + " outputs but node_row_ptr gives " +
                     std::to_string(row[i + 1] - row[i]));
        }
      }
    } else {
      r.fail(path + ".op", "expected \"null\" or \"tvm_op\", found \"" + op + "\"");
    }
    static const json kNoInputs = json::array();
    const json& ins = r.array(jn.contains("inputs") ? jn["inputs"] : kNoInputs, path + ".inputs");
    if (static_cast<int64_t>(ins.size()) > limits::kNodeEdges.value) {
      edge_count(static_cast<int64_t>(ins.size()), path + ".inputs", "the number of inputs");
    }
    for (size_t k = 0; k < ins.size(); ++k) {
      const std::string ipath = path + ".inputs[" + std::to_string(k) + "]";
      const json& in = r.array(ins[k], ipath);
      if (in.size() < 2) r.fail(ipath, "expected [node, output, version]");
      const int64_t src = r.integer(in[0], ipath + "[0]");
      const int64_t out = r.integer(in[1], ipath + "[1]");
      if (src < 0 || static_cast<size_t>(src) >= n) {
        r.fail(ipath, "input node " + std::to_string(src) + " is out of range (the graph has " +
                          std::to_string(n) + " nodes)");
      }
      if (static_cast<size_t>(src) >= i) {
        r.fail(ipath, "input node " + std::to_string(src) +
                          " points forward; graph-executor JSON lists producers before consumers");
      }
      if (out < 0 || out >= row[static_cast<size_t>(src) + 1] - row[static_cast<size_t>(src)]) {
        r.fail(ipath, "output " + std::to_string(out) + " of node " + std::to_string(src) +
                          " does not exist (it has " +
                          std::to_string(row[static_cast<size_t>(src) + 1] - row[static_cast<size_t>(src)]) +
                          ")");
      }
      node.inputs.push_back({static_cast<ir::NodeId>(src), static_cast<int32_t>(out)});
    }
    g.add(std::move(node));
  }
  if (doc.contains("heads")) {
    const json& heads = r.array(doc["heads"], "heads");
    for (size_t k = 0; k < heads.size(); ++k) {
      const std::string hpath = "heads[" + std::to_string(k) + "]";
      const json& h = r.array(heads[k], hpath);
      if (h.size() < 2) r.fail(hpath, "expected [node, output, version]");
      const int64_t src = r.integer(h[0], hpath + "[0]");
      if (src < 0 || static_cast<size_t>(src) >= n) r.fail(hpath, "node out of range");
      g.add_head({static_cast<ir::NodeId>(src), static_cast<int32_t>(r.integer(h[1], hpath + "[1]"))});
    }
  }
  g.validate();
  return g;
}

// The options' input rule and sequence length applied to a parsed graph.
ir::Graph apply_options(ir::Graph g, const std::string& name, const TvmImportOptions& options) {
  if (options.input_rule != g.input_rule()) {
    g.apply_input_rule(options.input_rule);
    g.validate();
  }
  if (options.sequence_length) {
    const int64_t target = *options.sequence_length;
    if (target < 1 || target > limits::kSequenceLength.value) {
      throw Error(SourcePlace{name, 0, 0, ""},
                  "sequence length must be between 1 and " + std::to_string(limits::kSequenceLength.value) + " (" +
                      std::string(limits::kSequenceLength.name) + "), got " + std::to_string(target));
    }
    std::optional<int64_t> traced = options.traced_length ? options.traced_length : detect_traced_length(g);
    if (!traced) {
      throw Error(SourcePlace{name, 0, 0, ""},
                  "cannot tell the sequence length this graph was traced at (no input_ids or past_* "
                  "input); give it explicitly (--traced-len)");
    }
    if (*traced < 1 || *traced > limits::kSequenceLength.value) {
      throw Error(SourcePlace{name, 0, 0, ""}, "traced sequence length must be between 1 and " +
                                                   std::to_string(limits::kSequenceLength.value) + ", got " +
                                                   std::to_string(*traced));
    }
    g.resize_sequence(*traced, target);
    g.validate();  // re-sized tensors must still be representable
  }
  return g;
}

// Files parsed by this process, most recently used last: a run checks its inputs before its
// points read them (sim/stages), and sweep workers are forked from the process that checked.
struct ParsedFile {
  std::string path;    // as spelled by the caller (the graph's source, in messages)
  std::string sha256;  // of the bytes parsed
  ir::Graph graph;     // as traced
};
constexpr size_t kParsedFiles = 4;  // a scenario's distinct TVM graphs are few; each holds its graph
std::mutex g_parsed_mutex;
std::vector<ParsedFile> g_parsed;

}  // namespace

uint64_t tvm_files_parsed() { return g_parses; }

ir::Graph import_tvm_file(const std::string& path, const TvmImportOptions& options) {
  if (const std::string sha = reuse_input_file(path); !sha.empty()) {
    const std::lock_guard<std::mutex> lock(g_parsed_mutex);
    for (auto it = g_parsed.begin(); it != g_parsed.end(); ++it) {
      if (it->path != path || it->sha256 != sha) continue;
      std::rotate(it, it + 1, g_parsed.end());
      return apply_options(g_parsed.back().graph, path, options);
    }
  }
  ir::Graph traced = parse_tvm_json(read_input_file(path, "TVM graph file", limits::kGraphFileBytes), path);
  // Kept only when a later call can tell the file is unchanged (reuse_input_file's rule).
  if (const std::string sha = reuse_input_file(path); !sha.empty()) {
    const std::lock_guard<std::mutex> lock(g_parsed_mutex);
    g_parsed.erase(std::remove_if(g_parsed.begin(), g_parsed.end(), [&](const ParsedFile& f) { return f.path == path; }),
                   g_parsed.end());
    if (g_parsed.size() == kParsedFiles) g_parsed.erase(g_parsed.begin());
    g_parsed.push_back(ParsedFile{path, sha, traced});
  }
  return apply_options(std::move(traced), path, options);
}

ir::Graph import_tvm_json(std::string_view text, const std::string& name, const TvmImportOptions& options) {
  return apply_options(parse_tvm_json(text, name), name, options);
}

std::optional<int64_t> detect_traced_length(const ir::Graph& g) {
  std::optional<int64_t> tokens;
  std::optional<int64_t> past;
  for (const ir::Node& node : g.nodes()) {
    if (node.kind != ir::OpKind::memory) continue;
    const ir::Shape& s = node.output().shape;
    if (node.name == "input_ids" && s.rank() == 2) tokens = s[1];
    if (!past && node.name.rfind("past", 0) == 0 && s.rank() >= 2) past = s.from_back(2);
  }
  if (tokens && *tokens > 1) return tokens;
  if (past) return past;
  return tokens;
}

}  // namespace lightcode::frontend
