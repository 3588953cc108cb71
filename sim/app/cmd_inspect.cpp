// `lightcode inspect`: what a model's graph contains, before any hardware is involved.
#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "frontend/load_model.hpp"
#include "sim/app/commands.hpp"
#include "sim/app/format.hpp"
#include "sim/core/error.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::app {
namespace {

struct InspectOptions {
  std::string model;
  std::string stage = "prefill";
  std::string logits = "last";
  std::optional<int64_t> seq;
  std::optional<int64_t> kv;
  std::optional<int64_t> traced;
  size_t top = 10;
  bool json = false;
};

std::string product_text(const ir::MatrixProduct& p) {
  std::string s;
  for (const auto& in : p.inputs) s += (s.empty() ? "" : " x ") + in.str();
  return s + " -> " + p.output.str();
}

nlohmann::ordered_json to_json(const ir::Graph& g, const ir::GraphSummary& s) {
  nlohmann::ordered_json j;
  j["source"] = g.source();
  j["nodes"] = s.nodes;
  j["memory_nodes"] = s.memory_nodes;
  j["kinds"] = s.kinds;
  j["macs"] = s.macs;
  j["flops"] = s.flops;
  j["parameter_bytes"] = s.parameter_bytes;
  j["input_bytes"] = s.input_bytes;
  j["activation_bytes"] = s.activation_bytes;
  auto& products = j["largest_products"] = nlohmann::ordered_json::array();
  for (const auto& p : s.largest_products) {
    nlohmann::ordered_json e;
    e["id"] = p.id;
    e["name"] = p.name;
    e["kind"] = p.kind;
    auto& ins = e["inputs"] = nlohmann::ordered_json::array();
    for (const auto& in : p.inputs) ins.push_back(std::vector<int64_t>(in.begin(), in.end()));
    e["output"] = std::vector<int64_t>(p.output.begin(), p.output.end());
    e["macs"] = p.macs;
    products.push_back(std::move(e));
  }
  return j;
}

void print_bytes(std::ostream& out, const char* title, const std::map<std::string, int64_t>& b) {
  out << "  " << std::left << std::setw(12) << title;
  if (b.empty()) out << " none";
  bool first = true;
  for (const auto& [dtype, bytes] : b) {
    out << (first ? " " : ", ") << dtype << " " << human_bytes(bytes) << " (" << grouped(bytes) << " B)";
    first = false;
  }
  out << "\n";
}

void print_text(std::ostream& out, const ir::Graph& g, const ir::GraphSummary& s) {
  out << "graph       " << g.source() << "\n";
  out << "nodes       " << s.nodes << " (" << s.memory_nodes << " memory, "
      << s.nodes - s.memory_nodes << " operators)\n";
  out << "MACs        " << grouped(s.macs) << " (" << engineering(static_cast<double>(s.macs)) << ")\n";
  out << "FLOPs       " << grouped(s.flops) << " (" << engineering(static_cast<double>(s.flops)) << ")\n";
  out << "bytes by dtype\n";
  print_bytes(out, "parameters", s.parameter_bytes);
  print_bytes(out, "inputs", s.input_bytes);
  print_bytes(out, "activations", s.activation_bytes);
  out << "operator kinds\n";
  std::vector<std::pair<std::string, int64_t>> kinds(s.kinds.begin(), s.kinds.end());
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [kind, count] : kinds) out << "  " << std::left << std::setw(14) << kind << std::right << std::setw(6) << count << "\n";
  out << "largest matrix products\n";
  for (const auto& p : s.largest_products) {
    out << "  " << std::left << std::setw(7) << p.kind << std::right << std::setw(12)
        << engineering(static_cast<double>(p.macs)) << "MAC  " << product_text(p) << "  (node " << p.id
        << " " << p.name << ")\n";
  }
}

}  // namespace

void register_inspect(CLI::App& app, CommandAction& action) {
  auto opts = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "inspect",
      "Summarise a model's graph: node count, operator kinds, MACs and FLOPs, bytes by dtype,\n"
      "the largest matrix products.\n\n"
      "MODEL is a TVM graph-executor JSON file, an ONNX model (docs/ONNX.md) or a built-in model\n"
      "(configs/models/*.yaml):\n"
      "  lightcode inspect gpt2 --seq 1400\n"
      "  lightcode inspect llama-3-8b --stage decode --kv 4096 --json\n"
      "  lightcode inspect ../shared/graphs/tvm/gpt2_prefill_seq5_graph.json --seq 150");
  cmd->add_option("model", opts->model, "TVM graph JSON file, ONNX model file or built-in model name")->required();
  cmd->add_option("--seq", opts->seq,
                  "Prefill sequence length in tokens (built-in default 128; a TVM graph is\n"
                  "re-sized from the length it was traced at)");
  cmd->add_option("--stage", opts->stage, "prefill, or decode (one token against a KV cache)")
      ->check(CLI::IsMember({"prefill", "decode"}));
  cmd->add_option("--kv", opts->kv, "KV-cache length for --stage decode (default 128)");
  cmd->add_option("--logits", opts->logits,
                  "Built-in models: logits of the last prompt token (last) or of every token (all,\n"
                  "as TVM traces the model)")
      ->check(CLI::IsMember({"last", "all"}))
      ->capture_default_str();
  cmd->add_option("--traced-len", opts->traced,
                  "Sequence length a TVM graph was traced at (default: detected from input_ids)");
  cmd->add_option("--top", opts->top, "How many of the largest matrix products to list")
      ->capture_default_str();
  cmd->add_flag("--json", opts->json, "Machine-readable output");
  cmd->callback([opts, &action] {
    action = [opts] {
      frontend::ModelRequest req;
      req.model = opts->model;
      req.stage = frontend::parse_stage(opts->stage);
      if (req.stage == frontend::Stage::decode && opts->seq && !frontend::is_graph_file(opts->model)) {
        throw Error("--seq is the prefill length; a decode step takes --kv (the KV-cache length)");
      }
      if (req.stage == frontend::Stage::prefill && opts->kv && !frontend::is_graph_file(opts->model)) {
        throw Error("--kv applies to --stage decode; a prefill takes --seq");
      }
      req.length = opts->kv ? opts->kv : opts->seq;
      req.traced_length = opts->traced;
      req.logits = frontend::parse_logits(opts->logits);
      const ir::Graph g = frontend::load_model(req);
      const ir::GraphSummary s = ir::summarize(g, opts->top);
      if (opts->json) {
        std::cout << to_json(g, s).dump(2) << "\n";
      } else {
        print_text(std::cout, g, s);
      }
      return 0;
    };
  });
}

}  // namespace lightcode::app
