// The original's partition (sim/opt/original_partition.hpp) on the TVM graphs and the built-in
// models: the counts LIGHTCODE_MODEL.md states (28 subgraphs for GPT-2 prefill and decoder, 66
// for Llama-2-7B prefill), and its structure: consecutive groups share their cut op; every
// other op that is neither a graph input nor a graph output is in exactly one group.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "frontend/load_model.hpp"
#include "sim/opt/original_partition.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

ir::Graph partition_graph(const std::string& model, int64_t length = 0) {
  frontend::ModelRequest r;
  r.model = model;
  if (length > 0) r.length = length;
  return frontend::load_model(r);
}

void check_structure(const ir::Graph& g, const opt::OriginalPartition& p) {
  const auto uses = g.consumers();
  std::map<ir::NodeId, int> seen;
  for (const auto& group : p.groups) {
    REQUIRE_FALSE(group.empty());
    for (ir::NodeId id : group) ++seen[id];
  }
  for (ir::NodeId cut : p.cut_ops) CHECK(seen[cut] == 2);
  for (size_t k = 0; k + 1 < p.groups.size(); ++k)
    CHECK(p.groups[k].back() == p.groups[k + 1].front());
  for (size_t i = 0; i < g.size(); ++i) {
    const auto id = static_cast<ir::NodeId>(i);
    const bool input = g.node(id).inputs.empty(), output = uses[i].empty();
    const bool cut = std::find(p.cut_ops.begin(), p.cut_ops.end(), id) != p.cut_ops.end();
    CAPTURE(i);
    CHECK(seen[id] == (input || output ? 0 : cut ? 2 : 1));
  }
  CHECK(p.count() == static_cast<int32_t>(p.cut_ops.size()) + 1);
}

}  // namespace

TEST_CASE("original partition: GPT-2 prefill and decoder TVM graphs give 28 subgraphs") {
  for (const char* file : {"gpt2_prefill_seq5_graph.json", "gpt2_decoder_seq6_graph.json"}) {
    const std::string path = test::tvm_graph(file);
    if (!test::have_external(path)) return;
    CAPTURE(file);
    const ir::Graph g = partition_graph(path);
    const opt::OriginalPartition p = opt::original_partition(g);
    CHECK(p.count() == 28);
    check_structure(g, p);
  }
}

TEST_CASE("original partition: the Llama-2-7B prefill TVM graph gives 66 subgraphs") {
  const std::string path = test::tvm_graph("llama2_7b_prefill_seq6_graph.json");
  if (!test::have_external(path)) return;
  const ir::Graph g = partition_graph(path);
  const opt::OriginalPartition p = opt::original_partition(g);
  CHECK(p.count() == 66);
  check_structure(g, p);
}

TEST_CASE(
    "original partition: the built-in gpt2 and llama-2-7b give the TVM graphs' counts at any "
    "length") {
  for (int64_t length : {5, 150, 1400}) {
    CAPTURE(length);
    const ir::Graph gpt2 = partition_graph("gpt2", length);
    CHECK(opt::original_partition(gpt2).count() == 28);
    check_structure(gpt2, opt::original_partition(gpt2));
    const ir::Graph llama = partition_graph("llama-2-7b", length);
    CHECK(opt::original_partition(llama).count() == 66);
  }
}
