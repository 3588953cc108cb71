// The runtime dataset (sim/dataset): every table's fields on tiny scenarios, byte-identical
// files whatever the job count, provenance, splits by family, serving iterations, failed
// points that lose nothing else, and the schema's own invariants.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/sha256.hpp"
#include "sim/dataset/dataset.hpp"
#include "sim/dataset/hardware.hpp"
#include "sim/dataset/reader.hpp"
#include "sim/dataset/split.hpp"
#include "sim/dataset/worker.hpp"
#include "sim/stages/stage.hpp"
#include "sim/sweep/provenance.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scratch.hpp"

using namespace lightcode;
using namespace lightcode::dataset;

namespace {

std::string systems() {
  return test::source_dir() + "/configs/systems/";
}

// gpt2 prefill on CPU/PHU (joint search, photonic products) and H100 (fused kernels), and a
// 3-token generation on the CPU: 3 points, 5 graphs.
std::string graph_scenario() {
  return "name: tiny\nmodel: gpt2\nprofile: default\nobjective: time\nfidelity: "
         "analytical\nsequence_length: 16\n"
         "placement_evaluations: 8\nnew_tokens: 3\nsweep:\n  zip:\n    stage: [prefill, prefill, "
         "generate]\n"
         "    system: [" +
         systems() + "cpu_phu.yaml, " + systems() + "h100_sxm.yaml, " + systems() + "cpu.yaml]\n";
}

std::string byte_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

DatasetSummary make(const test::Scratch& scratch, const std::string& scenario_text,
                    const std::string& out, int jobs = 1, DatasetOptions o = {}) {
  const std::string file = scratch.file("scenario.yaml", scenario_text);
  o.out = scratch.path(out);
  o.jobs = jobs;
  return write_dataset(file, {}, o);
}

std::map<std::string, std::string> attributes(const std::string& path) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : read_attributes(path)) out[k] = v;
  return out;
}

}  // namespace

TEST_CASE("dataset: every table's fields on a tiny scenario") {
  test::Scratch scratch;
  const DatasetSummary s = make(scratch, graph_scenario(), "d.h5", 2);
  CHECK(s.points == 3);
  CHECK(s.failed == 0);
  CHECK(s.graphs == 5);  // two prefills and a generation's 3 steps
  const std::string path = scratch.path("d.h5");
  const Rows points = read_table(path, Table::points);
  const Rows graphs = read_table(path, Table::graphs);
  const Rows ops = read_table(path, Table::ops);
  const Rows edges = read_table(path, Table::edges);
  const Rows placement = read_table(path, Table::placement);
  const Rows alternatives = read_table(path, Table::alternatives);
  const Rows hardware = read_table(path, Table::hardware);
  const Rows parameters = read_table(path, Table::hardware_parameters);
  REQUIRE(points.size() == 3);
  REQUIRE(graphs.size() == 5);
  CHECK(ops.size() == s.ops);

  // The same points run by their stages: as many tasks, the same makespans and energy.
  const sweep::Scenario scenario = sweep::load_scenario(scratch.path("scenario.yaml"));
  for (size_t p = 0; p < 3; ++p) {
    sweep::PointOptions every;
    every.every_task = true;
    const sweep::PointRun run = sweep::run_point(scenario.points[p], every);
    CHECK(points.text(p, points_col::status) == "ok");
    CHECK(points.i64(p, points_col::ops) == static_cast<int64_t>(run.result.tasks.size()));
    CHECK(points.f64(p, points_col::makespan_s) == run.result.summary.makespan_s);
    CHECK(points.f64(p, points_col::energy_pj) == run.result.summary.energy_pj);
    int64_t makespan = 0;
    double energy = 0.0;
    for (size_t g = 0; g < graphs.size(); ++g) {
      if (graphs.i64(g, graphs_col::point) != static_cast<int64_t>(p)) continue;
      makespan += graphs.i64(g, graphs_col::makespan_ps);
      energy += graphs.f64(g, graphs_col::energy_pj);
    }
    CHECK(makespan == run.result.summary.makespan.count_ps());  // a generation's steps end to end
    CHECK(energy == doctest::Approx(run.result.summary.energy_pj).epsilon(1e-9));
  }
  // Generation: prefill then decode steps against a growing cache.
  CHECK(graphs.text(2, graphs_col::stage) == "prefill");
  CHECK(graphs.text(3, graphs_col::stage) == "decode");
  CHECK(graphs.i64(3, graphs_col::context_length) == 16);
  CHECK(graphs.i64(4, graphs_col::context_length) == 17);
  CHECK(graphs.i32(4, graphs_col::step) == 2);
  CHECK(std::isnan(
      graphs.f64(3, graphs_col::lower_bound)));  // a step of a longer point has no bound of its own
  CHECK(graphs.f64(0, graphs_col::lower_bound) > 0.0);
  CHECK(graphs.f64(0, graphs_col::gap) >= 0.0);

  // Ops: dense ids, tasks numbered per graph, ids that join, arithmetic that adds up.
  std::set<std::string> hardware_ids;
  for (size_t r = 0; r < hardware.size(); ++r)
    hardware_ids.insert(hardware.text(r, hardware_col::hardware_id));
  std::map<int64_t, int64_t> tasks_of;
  bool fused = false, photonic = false;
  for (size_t r = 0; r < ops.size(); ++r) {
    CHECK(ops.i64(r, ops_col::record_id) == static_cast<int64_t>(r));
    const int64_t g = ops.i64(r, ops_col::graph_id);
    CHECK(ops.i32(r, ops_col::task) == tasks_of[g]++);
    CHECK(hardware_ids.count(ops.text(r, ops_col::hardware_id)) == 1);
    CHECK(ops.i64(r, ops_col::time_ps) >= 0);
    CHECK(ops.i64(r, ops_col::end_ps) >= ops.i64(r, ops_col::start_ps));
    CHECK(ops.i64(r, ops_col::end_ps) <=
          graphs.i64(static_cast<size_t>(g), graphs_col::makespan_ps));
    CHECK(!ops.text(r, ops_col::kind).empty());
    CHECK(ops.text(r, ops_col::family) == "gpt2");
    CHECK(ops.text(r, ops_col::split) == "train");
    const std::string kind = ops.text(r, ops_col::kind);
    if (ops.i32(r, ops_col::fused) == 1) {
      fused = true;
      CHECK(ops.i32(r, ops_col::covers) > 1);
      CHECK(!ops.text(r, ops_col::kernel_class).empty());
    }
    if (kind == "dense" || kind == "matmul" || kind == "matrix_matrix") {
      const double product = ops.f64(r, ops_col::batch) * ops.f64(r, ops_col::m) *
                             ops.f64(r, ops_col::n) * ops.f64(r, ops_col::k);
      CHECK(static_cast<double>(ops.i64(r, ops_col::macs)) == product);
      CHECK(ops.i64(r, ops_col::flops) == 2 * ops.i64(r, ops_col::macs));
      photonic = photonic || ops.text(r, ops_col::hardware_family) == "phu";
    } else if (ops.i32(r, ops_col::fused) == 0) {
      CHECK(std::isnan(ops.f64(r, ops_col::m)));
    }
  }
  CHECK(fused);     // the H100 runs fused kernels
  CHECK(photonic);  // the CPU/PHU point puts products on the photonic unit
  for (size_t g = 0; g < graphs.size(); ++g) {
    CHECK(graphs.i64(g, graphs_col::graph_id) == static_cast<int64_t>(g));
    CHECK(graphs.i64(g, graphs_col::tasks) == tasks_of[static_cast<int64_t>(g)]);
  }
  // Edges: producers before consumers, inside their graph.
  for (size_t r = 0; r < edges.size(); ++r) {
    CHECK(edges.i32(r, edges_col::src) < edges.i32(r, edges_col::dst));
    CHECK(edges.i32(r, edges_col::dst) < tasks_of[edges.i64(r, edges_col::graph_id)]);
  }
  // Placement: every task on some unit type.
  std::map<int64_t, int64_t> placed;
  for (size_t r = 0; r < placement.size(); ++r)
    placed[placement.i64(r, placement_col::graph_id)] += placement.i64(r, placement_col::tasks);
  for (const auto& [g, n] : tasks_of) CHECK(placed[g] == n);
  // Alternatives: the archive's answer is the graph's (time objective: the fastest).
  std::map<int64_t, int> chosen;
  for (size_t r = 0; r < alternatives.size(); ++r) {
    if (alternatives.i32(r, alternatives_col::chosen) == 0) continue;
    const int64_t g = alternatives.i64(r, alternatives_col::graph_id);
    ++chosen[g];
    CHECK(alternatives.i64(r, alternatives_col::makespan_ps) ==
          graphs.i64(static_cast<size_t>(g), graphs_col::makespan_ps));
    CHECK(alternatives.i32(r, alternatives_col::rank) == 0);
  }
  CHECK(chosen[0] == 1);
  // Hardware: each id's every parameter, once.
  std::map<std::string, int64_t> rows_of;
  for (size_t r = 0; r < parameters.size(); ++r)
    ++rows_of[parameters.text(r, hardware_parameters_col::hardware_id)];
  for (size_t r = 0; r < hardware.size(); ++r) {
    CHECK(rows_of[hardware.text(r, hardware_col::hardware_id)] ==
          hardware.i64(r, hardware_col::parameters));
  }
}

TEST_CASE("dataset: the same scenario gives the same bytes, whatever the job count") {
  test::Scratch scratch;
  const std::string text = graph_scenario();
  make(scratch, text, "a.h5", 1);
  make(scratch, text, "b.h5", 2);
  make(scratch, text, "c.h5", 3);
  const std::string a = byte_text(scratch.path("a.h5"));
  CHECK(!a.empty());
  CHECK(a == byte_text(scratch.path("b.h5")));
  CHECK(a == byte_text(scratch.path("c.h5")));
}

TEST_CASE("dataset: provenance attributes present and digests correct") {
  test::Scratch scratch;
  const uint64_t mark = input_mark();
  make(scratch, graph_scenario(), "d.h5");
  const std::string path = scratch.path("d.h5");
  const auto attrs = attributes(path);
  for (const Attribute& a : root_attributes())
    CHECK_MESSAGE(attrs.count(std::string(a.name)) == 1, a.name);
  CHECK(attrs.at("format") == "lightcode-dataset");
  CHECK(attrs.at("schema_version") == std::to_string(kSchemaVersion));
  CHECK(attrs.at("tool_version") == "lightcode 0.1.0");
  CHECK(attrs.at("scenario") == graph_scenario());
  CHECK(attrs.at("fidelity") == "analytical");
  CHECK(attrs.at("points") == "3");
  CHECK(attrs.at("failed_points") == "0");
  // The digest is the sweeps' (sim/sweep/provenance.hpp) over the files the points read.
  const sweep::Scenario scenario = sweep::load_scenario(scratch.path("scenario.yaml"));
  const results::ResultsFile header = sweep::results_header(scenario, {}, inputs_read_since(mark));
  CHECK(attrs.at("scenario_digest") == header.scenario_digest);
  const Rows inputs = read_table(path, Table::inputs);
  REQUIRE(inputs.size() == header.inputs.size());
  bool model = false;
  for (size_t r = 0; r < inputs.size(); ++r) {
    const std::string file =
        (std::filesystem::path(scratch.dir) / inputs.text(r, inputs_col::path)).lexically_normal();
    CHECK(inputs.text(r, inputs_col::sha256) == sha256_hex(byte_text(file)));
    model = model || file.find("models/gpt2.yaml") != std::string::npos;
  }
  CHECK(model);
}

TEST_CASE("dataset: a family is in one split, decided by its name") {
  const SplitRule hash;
  CHECK(split_of("gpt2", hash) == Split::train);
  CHECK(split_of("bert", hash) == Split::train);
  CHECK(split_of("vit", hash) == Split::train);
  CHECK(split_of("opt", hash) == Split::validation);
  CHECK(split_of("llama", hash) == Split::test);
  CHECK(family_hash("gpt2") == doctest::Approx(0.1389).epsilon(1e-3));
  SplitRule named;
  named.test = {"opt"};
  named.validation = {"gpt2"};
  bool explicit_choice = false;
  CHECK(split_of("opt", named, &explicit_choice) == Split::test);
  CHECK(explicit_choice);
  CHECK(split_of("gpt2", named) == Split::validation);
  CHECK(split_of("llama", named, &explicit_choice) == Split::test);
  CHECK(!explicit_choice);
  named.test.push_back("gpt2");
  CHECK_THROWS_WITH_AS(check_split_rule(named), doctest::Contains("one split"), Error);
  CHECK(model_family("llama-2-7b").family == "llama");
  CHECK(model_family("mistral-7b").family == "llama");
  CHECK(model_family("deit-base").family == "vit");
  CHECK(model_family("/x/y/gpt2_prefill_seq5_graph.json").family == "gpt2_prefill_seq5_graph");

  // In a file: every row of a family carries its split, and /families says how it was decided.
  test::Scratch scratch;
  DatasetOptions o;
  o.test_families = {"bert"};
  make(scratch,
       "name: split\nstage: prefill\nprofile: lightcode\nobjective: time\nfidelity: "
       "analytical\nsequence_length: 8\nsystem: " +
           systems() + "lightcode/cpu.yaml\nsweep:\n  model: [gpt2, bert-base, gpt2-medium]\n",
       "d.h5", 1, o);
  const Rows families = read_table(scratch.path("d.h5"), Table::families);
  REQUIRE(families.size() == 2);
  CHECK(families.text(0, families_col::family) == "bert");
  CHECK(families.text(0, families_col::split) == "test");
  CHECK(families.text(0, families_col::rule) == "explicit");
  CHECK(families.text(1, families_col::family) == "gpt2");
  CHECK(families.text(1, families_col::models) == "gpt2,gpt2-medium");
  CHECK(families.i64(1, families_col::points) == 2);
  const Rows ops = read_table(scratch.path("d.h5"), Table::ops);
  std::map<std::string, std::set<std::string>> splits;
  for (size_t r = 0; r < ops.size(); ++r)
    splits[ops.text(r, ops_col::family)].insert(ops.text(r, ops_col::split));
  CHECK(splits["gpt2"] == std::set<std::string>{"train"});
  CHECK(splits["bert"] == std::set<std::string>{"test"});
  CHECK(attributes(scratch.path("d.h5")).at("test_families") == "bert");
}

TEST_CASE("dataset: a serve point yields its iterations") {
  test::Scratch scratch;
  const DatasetSummary s = make(
      scratch,
      "name: serve\nmodel: gpt2\nstage: serve\nprofile: default\nobjective: "
      "time\nplacement_evaluations: 2\n"
      "system: " +
          systems() +
          "h100_sxm.yaml\nbatching: {policy: continuous, max_batch: 4, token_budget: 128}\n"
          "requests:\n  count: 5\n  seed: 3\n  prompt: {distribution: uniform, min: 8, max: 32}\n"
          "  output: {distribution: uniform, min: 2, max: 6}\narrival_rate: 50 "
          "req/s\ncost_grid_bits: 2\n",
      "d.h5");
  CHECK(s.failed == 0);
  CHECK(s.graphs == 0);
  REQUIRE(s.iterations > 0);
  const std::string path = scratch.path("d.h5");
  const Rows it = read_table(path, Table::iterations);
  const Rows points = read_table(path, Table::points);
  CHECK(points.i64(0, points_col::iterations) == static_cast<int64_t>(it.size()));
  CHECK(points.text(0, points_col::seed) == "3");
  CHECK(attributes(path).at("seeds") == "3");
  int64_t produced = 0, previous_start = 0;
  for (size_t r = 0; r < it.size(); ++r) {
    CHECK(it.i64(r, iterations_col::iteration) == static_cast<int64_t>(r));
    CHECK(it.i64(r, iterations_col::batch) == it.i64(r, iterations_col::prefill_sequences) +
                                                  it.i64(r, iterations_col::decode_sequences));
    CHECK(it.i64(r, iterations_col::duration_ps) > 0);
    CHECK(it.i64(r, iterations_col::start_ps) >= previous_start);
    CHECK(it.f64(r, iterations_col::energy_pj) > 0.0);
    CHECK(it.text(r, iterations_col::system) == "H100-SXM");
    previous_start = it.i64(r, iterations_col::start_ps);
    produced += it.i64(r, iterations_col::tokens_produced);
  }
  // Every output token of every request came out of one iteration.
  const sweep::Scenario scenario = sweep::load_scenario(scratch.path("scenario.yaml"));
  const sweep::PointRun run = sweep::run_point(scenario.points[0]);
  CHECK(produced == run.result.summary.output_tokens);
  CHECK(static_cast<int64_t>(it.size()) == run.result.summary.iterations);
  CHECK(read_table(path, Table::hardware).size() == 4);  // the replica's units
}

TEST_CASE("dataset: a failed point is recorded and the others go on") {
  test::Scratch scratch;
  // bert-base has no KV cache to decode against: that point fails when it runs.
  const DatasetSummary s =
      make(scratch,
           "name: failing\nprofile: lightcode\nobjective: time\nfidelity: "
           "analytical\nsequence_length: 8\n"
           "system: " +
               systems() +
               "lightcode/cpu.yaml\nsweep:\n  zip:\n"
               "    model: [gpt2, bert-base, gpt2]\n    stage: [prefill, decode, decode]\n",
           "d.h5", 2);
  CHECK(s.points == 3);
  CHECK(s.failed == 1);
  CHECK(s.graphs == 2);
  const Rows points = read_table(scratch.path("d.h5"), Table::points);
  CHECK(points.text(0, points_col::status) == "ok");
  CHECK(points.text(1, points_col::status) == "failed");
  CHECK(points.text(1, points_col::error).find("no KV cache") != std::string::npos);
  CHECK(std::isnan(points.f64(1, points_col::makespan_s)));
  CHECK(points.i64(1, points_col::ops) == 0);
  CHECK(points.text(2, points_col::status) == "ok");
  const Rows graphs = read_table(scratch.path("d.h5"), Table::graphs);
  CHECK(graphs.i64(1, graphs_col::point) == 2);
  CHECK(attributes(scratch.path("d.h5")).at("failed_points") == "1");
}

TEST_CASE("dataset: event-fidelity points run in worker processes, a crashed one recorded") {
  test::Scratch scratch;
  const std::string text =
      "name: event\nmodel: gpt2\nstage: prefill\nprofile: lightcode\nobjective: time\nfidelity: "
      "event\n"
      "system: " +
      systems() + "lightcode/cpu.yaml\nsweep:\n  sequence_length: [4, 6, 8]\n";
  const DatasetSummary a = make(scratch, text, "a.h5", 1);
  CHECK(a.worker_processes);
  CHECK(a.failed == 0);
  const DatasetSummary b = make(scratch, text, "b.h5", 3);
  CHECK(byte_text(scratch.path("a.h5")) == byte_text(scratch.path("b.h5")));
  CHECK(read_table(scratch.path("a.h5"), Table::graphs).text(0, graphs_col::fidelity) == "event");
  ::setenv("LIGHTCODE_FAULT_CRASH_POINT", "p0001", 1);
  const DatasetSummary c = make(scratch, text, "c.h5", 2);
  ::unsetenv("LIGHTCODE_FAULT_CRASH_POINT");
  CHECK(c.failed == 1);
  CHECK(c.graphs == 2);
  const Rows points = read_table(scratch.path("c.h5"), Table::points);
  CHECK(points.text(1, points_col::error).find("worker crashed") != std::string::npos);
  CHECK(points.text(2, points_col::status) == "ok");
  CHECK(b.ops == a.ops);
}

TEST_CASE("dataset: hardware ids follow the hardware, not its system or spelling") {
  SystemCache cache;
  const SystemEntry& cpu = cache.get("default", systems() + "cpu.yaml", {}, "cpu.yaml");
  const SystemEntry& cpu_phu = cache.get("default", systems() + "cpu_phu.yaml", {}, "cpu_phu.yaml");
  const SystemEntry& more =
      cache.get("default", systems() + "cpu_phu.yaml", {{"units.phu.cores", "2"}}, "cpu_phu.yaml");
  CHECK(cpu.descriptor.units.at(0).id ==
        cpu_phu.descriptor.units.at(0).id);  // the same CPU in both
  CHECK(cpu.descriptor.units.at(0).id.size() == 16);
  CHECK(cpu_phu.descriptor.units.at(1).family == "phu");
  CHECK(cpu_phu.descriptor.units.at(1).id != more.descriptor.units.at(1).id);  // a swept parameter
  CHECK(cpu_phu.descriptor.units.at(0).id == more.descriptor.units.at(0).id);
  bool clock = false;
  for (const HardwareParameter& p : cpu_phu.descriptor.units.at(1).parameters) {
    if (p.name != "clock") continue;
    clock = true;
    CHECK(p.value == 9.7e9);
    CHECK(p.unit == "Hz");
  }
  CHECK(clock);
}

TEST_CASE("dataset: rows, records files and the schema") {
  Rows rows(Table::points);
  const size_t r = rows.add();
  CHECK_THROWS_WITH_AS(rows.set_text(r, points_col::point_id, std::string(17, 'x')),
                       doctest::Contains("holds 16 bytes"), Error);
  rows.set_text_cut(r, points_col::error, std::string(600, 'e'));
  CHECK(rows.text(r, points_col::error).size() == 512);
  CHECK(rows.text(r, points_col::error).substr(509) == "...");
  rows.set_text(r, points_col::status, "failed");
  rows.set_text(r, points_col::status, "ok");
  CHECK(rows.text(r, points_col::status) == "ok");

  PointRecords records;
  records.point = 7;
  records.at(Table::points) = rows;
  const std::string bytes = serialise(records);
  const PointRecords back = deserialise(bytes);
  CHECK(back.point == 7);
  CHECK(back.at(Table::points).bytes() == rows.bytes());
  CHECK_THROWS_AS(deserialise(bytes.substr(0, bytes.size() - 1)), Error);

  const std::string md = schema_markdown();
  for (size_t t = 0; t < kTables; ++t) {
    const TableSchema& s = schema(static_cast<Table>(t));
    CHECK(md.find("### /" + std::string(s.name) + "\n") != std::string::npos);
    for (const Column& c : s.columns) CHECK_MESSAGE(!c.doc.empty(), c.name);
  }
  for (const Attribute& a : root_attributes())
    CHECK(md.find("`" + std::string(a.name) + "`") != std::string::npos);
}
