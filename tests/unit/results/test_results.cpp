// Results writers and reader: HDF5 round trip, reproducible bytes, atomic replacement, what
// h5py sees (skipped with exit 77 without it), the seed table and the instruction listing.
#include <doctest/doctest.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/results/console_table.hpp"
#include "sim/results/hdf5_file.hpp"
#include "sim/results/listing.hpp"
#include "tests/support/files.hpp"
#include "tests/support/python.hpp"

using namespace lightcode;
using lightcode::test::slurp;
using namespace lightcode::results;
namespace fs = std::filesystem;

namespace {

// A fresh directory per test case, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("lc_results_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

struct EpochGuard {
  explicit EpochGuard(const char* value) { ::setenv("SOURCE_DATE_EPOCH", value, 1); }
  ~EpochGuard() { ::unsetenv("SOURCE_DATE_EPOCH"); }
};

TaskRecord task(int64_t id, int64_t start_ps, const std::string& hardware, int32_t unit) {
  TaskRecord t;
  t.id = id;
  t.name = "node" + std::to_string(id) + (id % 3 == 0 ? "/mm" + std::to_string(id) : "");
  t.op = id % 2 ? "dense" : "matrix_matrix";
  t.hardware = hardware;
  t.unit = unit;
  t.node = id == 0 ? -1 : id * 7;
  t.subgraph = static_cast<int32_t>(id % 4) - 1;
  t.start = Time::ps(start_ps);
  t.end = Time::ps(start_ps + 1000 * (id + 1));
  t.energy_pj = 0.1 * static_cast<double>(id) + 1e-300;
  t.inputs = id == 0 ? "" : std::to_string(id - 1) + "," + std::to_string(id / 2);
  t.outputs = "[1, 150, 768]";
  t.step = static_cast<int32_t>(id / 4);  // a generate point's rows carry their step
  return t;
}

PointResult point(const std::string& id, const std::string& system, int64_t sequence) {
  PointResult p;
  PointSummary& s = p.summary;
  s.id = id;
  s.parameters = {{"system", system}, {"sequence_length", std::to_string(sequence)}};
  s.model = "gpt2";
  s.stage = "prefill";
  s.sequence_length = sequence;
  s.system = system;
  s.objective = "time";
  s.profile = "lightcode";
  s.fidelity = "event";
  s.makespan = Time::ps(130160000000 + sequence);
  s.makespan_s = s.makespan.seconds();
  s.analytical_makespan = s.makespan - Time::ps(99);
  s.energy_pj = 46733526484.6;
  s.nodes = 1518;
  s.photonic_selected = 73;
  s.photonic_possible = 73;
  s.precision_bits = 8;
  s.photonic_refused_precision = 12;
  s.lower_bound = 0.25;
  s.gap = 0.125;
  s.placement_evaluations = 64;
  s.subgraphs = 25;
  s.subgraphs_solved = 3;
  s.subgraphs_reused = 22;
  for (int64_t i = 0; i < 9; ++i) {
    p.tasks.push_back(task(i, (i * 37) % 5 * 1000, i % 2 ? "phu" : "cpu", static_cast<int32_t>(i % 3)));
  }
  p.units.resize(3);
  p.units[0].name = "cpu";
  p.units[0].busy = Time::ps(123456789);
  p.units[0].utilisation = 0.25;
  p.units[0].energy_pj = 1.5e9;
  p.units[0].static_energy_pj = 2.0e8;
  p.units[0].tasks = 4;
  p.units[1].name = "phu";
  p.units[1].index = 1;
  p.units[1].busy = Time::ps(42);
  p.units[1].utilisation = 0.75;
  p.units[1].energy_pj = 2.5;
  p.units[1].tasks = 5;
  p.units[1].conversion = Time::ps(17);
  p.units[2].name = "sram->cpu";
  p.units[2].kind = "link";
  p.units[2].busy = Time::ps(9000);
  p.units[2].energy_pj = 0.5;
  p.units[2].tasks = 3;
  p.units[2].bytes = 1LL << 33;
  p.units[2].queue_delay = Time::ps(1234);
  p.energy = {{"cpu", "compute", 1.25e10},
              {"link", "data_movement", 3.5},
              {"phu", "conversion", 7.0},
              {"phu", "compute", 8.0}};
  p.memory_profile = {{Time::ps(0), 0, 0}, {Time::ps(1000), 4096, 1LL << 40}, {Time::ps(2000), 12, -1}};
  p.pareto = {{Time::ps(1000), 9.5, "sum:time"}, {Time::ps(3000), 4.25, "heft:time"}};
  return p;
}

ResultsFile sample_file() {
  ResultsFile f;
  f.tool_version = "lightcode 0.1.0";
  f.scenario_text = "name: gpt2-prefill\nmodel: gpt2  # µ-benchmark, Ω\nsweep: {}\n";
  f.points.push_back(point("p0000", "CPU", 1400));
  f.points.push_back(point("p0001", "CPU/PHU", 150));
  PointResult failed;  // no tasks, units, energy or memory: empty datasets
  failed.summary.id = "p0002";
  failed.summary.status = Status::failed;
  failed.summary.error = "no hardware in system 'GPU/PHU' supports op 'softmax_7'";
  failed.summary.parameters = {{"system", "GPU/PHU"}, {"extra axis", "é"}};
  failed.summary.system = "GPU/PHU";
  failed.summary.sequence_length = 150;
  f.points.push_back(failed);
  return f;
}

void check_same(const PointResult& a, const PointResult& b) {
  const PointSummary& x = a.summary;
  const PointSummary& y = b.summary;
  CHECK(x.id == y.id);
  CHECK(x.status == y.status);
  CHECK(x.error == y.error);
  CHECK(x.parameters == y.parameters);
  CHECK(x.model == y.model);
  CHECK(x.stage == y.stage);
  CHECK(x.sequence_length == y.sequence_length);
  CHECK(x.system == y.system);
  CHECK(x.objective == y.objective);
  CHECK(x.profile == y.profile);
  CHECK(x.fidelity == y.fidelity);
  CHECK(x.makespan == y.makespan);
  CHECK(x.makespan_s == y.makespan_s);
  CHECK(x.analytical_makespan == y.analytical_makespan);
  CHECK(x.energy_pj == y.energy_pj);
  CHECK(x.nodes == y.nodes);
  CHECK(x.photonic_selected == y.photonic_selected);
  CHECK(x.photonic_possible == y.photonic_possible);
  CHECK(x.precision_bits == y.precision_bits);
  CHECK(x.photonic_refused_precision == y.photonic_refused_precision);
  CHECK(x.lower_bound == y.lower_bound);
  CHECK(x.gap == y.gap);
  CHECK(x.placement_evaluations == y.placement_evaluations);
  CHECK(x.subgraphs == y.subgraphs);
  CHECK(x.subgraphs_solved == y.subgraphs_solved);
  CHECK(x.subgraphs_reused == y.subgraphs_reused);
  REQUIRE(a.tasks.size() == b.tasks.size());
  for (size_t i = 0; i < a.tasks.size(); ++i) {
    const TaskRecord& s = a.tasks[i];
    const TaskRecord& t = b.tasks[i];
    CHECK(s.id == t.id);
    CHECK(s.name == t.name);
    CHECK(s.op == t.op);
    CHECK(s.hardware == t.hardware);
    CHECK(s.unit == t.unit);
    CHECK(s.node == t.node);
    CHECK(s.subgraph == t.subgraph);
    CHECK(s.start == t.start);
    CHECK(s.end == t.end);
    CHECK(s.energy_pj == t.energy_pj);
    CHECK(s.inputs == t.inputs);
    CHECK(s.outputs == t.outputs);
    CHECK(s.step == t.step);
  }
  REQUIRE(a.units.size() == b.units.size());
  for (size_t i = 0; i < a.units.size(); ++i) {
    const UnitRecord& u = a.units[i];
    const UnitRecord& v = b.units[i];
    CHECK(u.name == v.name);
    CHECK(u.kind == v.kind);
    CHECK(u.index == v.index);
    CHECK(u.busy == v.busy);
    CHECK(u.utilisation == v.utilisation);
    CHECK(u.energy_pj == v.energy_pj);
    CHECK(u.static_energy_pj == v.static_energy_pj);
    CHECK(u.tasks == v.tasks);
    CHECK(u.bytes == v.bytes);
    CHECK(u.queue_delay == v.queue_delay);
    CHECK(u.conversion == v.conversion);
  }
  REQUIRE(a.energy.size() == b.energy.size());
  for (size_t i = 0; i < a.energy.size(); ++i) {
    CHECK(a.energy[i].hardware == b.energy[i].hardware);
    CHECK(a.energy[i].category == b.energy[i].category);
    CHECK(a.energy[i].energy_pj == b.energy[i].energy_pj);
  }
  REQUIRE(a.memory_profile.size() == b.memory_profile.size());
  for (size_t i = 0; i < a.memory_profile.size(); ++i) {
    CHECK(a.memory_profile[i].time == b.memory_profile[i].time);
    CHECK(a.memory_profile[i].sram_bytes == b.memory_profile[i].sram_bytes);
    CHECK(a.memory_profile[i].hbm_bytes == b.memory_profile[i].hbm_bytes);
  }
  REQUIRE(a.pareto.size() == b.pareto.size());
  for (size_t i = 0; i < a.pareto.size(); ++i) {
    CHECK(a.pareto[i].makespan == b.pareto[i].makespan);
    CHECK(a.pareto[i].energy_pj == b.pareto[i].energy_pj);
    CHECK(a.pareto[i].origin == b.pareto[i].origin);
  }
}

bool has_temporary(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) return true;
  }
  return false;
}

// Runs a shell command; returns its exit status and stdout.
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, out};
  std::array<char, 4096> buffer{};
  size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), got);
  return {::pclose(pipe), out};
}

}  // namespace

TEST_CASE("results file: write then read gives back every field") {
  TempDir dir;
  const ResultsFile written = sample_file();
  const std::string path = dir.file("nested/deeper/run.h5");  // parent directories created
  write_results(path, written);
  const ResultsFile read = read_results(path);
  CHECK(read.tool_version == written.tool_version);
  CHECK(read.scenario_text == written.scenario_text);
  REQUIRE(read.points.size() == written.points.size());
  for (size_t i = 0; i < read.points.size(); ++i) check_same(written.points[i], read.points[i]);

  SUBCASE("no points at all") {
    ResultsFile empty;
    empty.tool_version = "lightcode 0.1.0";
    write_results(path, empty);
    const ResultsFile back = read_results(path);
    CHECK(back.points.empty());
    CHECK(back.tool_version == empty.tool_version);
    CHECK(back.scenario_text.empty());
  }
}

TEST_CASE("results file: large task tables (chunked, compressed) and long strings round-trip") {
  TempDir dir;
  ResultsFile big = sample_file();
  PointResult& p = big.points[0];
  p.tasks.clear();
  for (int64_t i = 0; i < 5000; ++i) p.tasks.push_back(task(i, i * 86000000, "gpu", 0));
  p.tasks[17].inputs = std::string(3000, '7');  // one very wide cell widens the column
  p.tasks[18].name = "ünïcödé/€";
  write_results(dir.file("big.h5"), big);
  const ResultsFile back = read_results(dir.file("big.h5"));
  REQUIRE(back.points.size() == big.points.size());
  for (size_t i = 0; i < back.points.size(); ++i) check_same(big.points[i], back.points[i]);
}

TEST_CASE("results file: same input and SOURCE_DATE_EPOCH give the same bytes") {
  TempDir dir;
  const EpochGuard epoch("1700000000");
  CHECK(creation_time() == "2023-11-14T22:13:20Z");
  write_results(dir.file("a.h5"), sample_file());
  ResultsFile other = sample_file();  // something different in between, to disturb the heap
  other.points.pop_back();
  write_results(dir.file("other.h5"), other);
#if defined(__GLIBC__)
  // Fill fresh and freed heap memory with a pattern: uninitialised bytes reaching the file
  // would then differ from the first write.
  mallopt(M_PERTURB, 0xA5);
#endif
  write_results(dir.file("b.h5"), sample_file());
#if defined(__GLIBC__)
  mallopt(M_PERTURB, 0);
#endif
  const std::string a = slurp(dir.file("a.h5"));
  CHECK(!a.empty());
  CHECK(a == slurp(dir.file("b.h5")));
  CHECK(a != slurp(dir.file("other.h5")));
}

TEST_CASE("results file: a malformed SOURCE_DATE_EPOCH is an error") {
  TempDir dir;
  const EpochGuard epoch("yesterday");
  CHECK_THROWS_WITH_AS(write_results(dir.file("x.h5"), sample_file()),
                       doctest::Contains("SOURCE_DATE_EPOCH"), Error);
  CHECK(!fs::exists(dir.file("x.h5")));
  CHECK(!has_temporary(dir.path));
}

TEST_CASE("results file: writing replaces the old file atomically and leaves no temporary") {
  TempDir dir;
  const std::string path = dir.file("run.h5");
  { std::ofstream(path) << "an older, unrelated file"; }
  write_results(path, sample_file());
  CHECK(!has_temporary(dir.path));
  CHECK(read_results(path).points.size() == 3);
  ResultsFile smaller = sample_file();
  smaller.points.resize(1);
  write_results(path, smaller);
  CHECK(!has_temporary(dir.path));
  CHECK(read_results(path).points.size() == 1);
}

TEST_CASE("results file: a failed write throws, names the path and keeps the previous file") {
  TempDir dir;
  const std::string path = dir.file("run.h5");
  write_results(path, sample_file());
  const std::string before = slurp(path);

  SUBCASE("the parent directory cannot be created") {
    { std::ofstream(dir.file("blocker")) << "a file, not a directory"; }
    const std::string bad = dir.file("blocker/sub/run.h5");
    CHECK_THROWS_WITH_AS(write_results(bad, sample_file()), doctest::Contains(bad.c_str()), Error);
  }
  SUBCASE("the data are invalid: two points with one id") {
    ResultsFile twice = sample_file();
    twice.points[1].summary.id = twice.points[0].summary.id;
    CHECK_THROWS_WITH_AS(write_results(path, twice), doctest::Contains("appears twice"), Error);
  }
  SUBCASE("a parameter would clash with the status attribute") {
    ResultsFile clash = sample_file();
    clash.points[0].summary.parameters.push_back({"status", "x"});
    CHECK_THROWS_WITH_AS(write_results(path, clash), doctest::Contains(path.c_str()), Error);
  }
  SUBCASE("the final rename fails (the target is a non-empty directory)") {
    const std::string target = dir.file("taken");
    fs::create_directories(target + "/inside");
    CHECK_THROWS_WITH_AS(write_results(target, sample_file()), doctest::Contains(target.c_str()), Error);
    CHECK(fs::is_directory(target));
  }
  CHECK(!has_temporary(dir.path));
  CHECK(slurp(path) == before);
}

TEST_CASE("results file: reading a missing or foreign file names it") {
  TempDir dir;
  const std::string missing = dir.file("missing.h5");
  CHECK_THROWS_WITH_AS(read_results(missing), doctest::Contains(missing.c_str()), Error);
  const std::string text = dir.file("text.h5");
  { std::ofstream(text) << "not hdf5"; }
  CHECK_THROWS_WITH_AS(read_results(text), doctest::Contains(text.c_str()), Error);
}

TEST_CASE("results file: h5py reads /summary as a table") {
  test::require_python_modules("h5py, numpy");  // skipped (exit 77) without them
  TempDir dir;
  const EpochGuard epoch("0");
  const std::string path = dir.file("run.h5");
  write_results(path, sample_file());
  const std::string script = dir.file("read.py");
  {
    std::ofstream py(script);
    py << "import sys, h5py\n"
          "f = h5py.File(sys.argv[1], 'r')\n"
          "s = f['summary'][:]\n"
          "d = lambda v: v.decode() if isinstance(v, bytes) else str(v)\n"
          "print('fields', ','.join(s.dtype.names))\n"
          "print('ids', ','.join(d(v) for v in s['id']))\n"
          "print('makespan_s', ','.join('%.6f' % v for v in s['makespan_s']))\n"
          "print('sequence_length', s['sequence_length'].dtype, list(s['sequence_length']))\n"
          "print('param.system', ','.join(d(v) for v in s['param.system']))\n"
          "print('created', f.attrs['created'])\n"
          "print('points', ','.join(f['points']))\n"
          "p = f['points/p0001']\n"
          "print('attrs', ','.join(p.attrs.keys()))\n"
          "print('tasks', len(p['tasks']), p['tasks'].dtype['start_ps'])\n"
          "print('empty', f['points/p0002/tasks'].shape, len(f['points/p0002/tasks'].dtype))\n"
          "print('steps', p['tasks'].dtype['step'], [int(v) for v in p['tasks']['step']])\n"
          "try:\n"
          "    import pandas\n"
          "    print('pandas rows', len(pandas.DataFrame(s)))\n"
          "except ImportError:\n"
          "    pass\n";
  }
  const auto result = run(test::python() + " " + script + " " + path + " 2>&1");
  const int status = result.first;
  const std::string& out = result.second;
  INFO(out);
  REQUIRE(status == 0);
  CHECK(out.find("fields id,status,error,model,stage,sequence_length,system,objective,profile,scheduler,"
                 "fidelity,makespan_ps,analytical_makespan_ps,makespan_s,energy_pj,nodes,photonic_selected,"
                 "photonic_possible,precision_bits,photonic_refused_precision,reduced_precision_products,reduced_precision,"
                     "lower_bound,gap,placement_evaluations,split,"
                 "subgraphs,subgraphs_solved,"
                 "subgraphs_reused,tensor_parallel,pipeline_parallel,communication_s,group_energy_pj,new_tokens,ttft_s,tpot_s,"
                         "energy_per_token_pj,requests,replicas,dispatch,arrival_rate_per_s,iterations,iteration_graphs,output_tokens,"
                 "ttft_p50_s,ttft_p90_s,ttft_p99_s,tpot_p50_s,tpot_p90_s,tpot_p99_s,latency_p50_s,latency_p90_s,"
                 "latency_p99_s,throughput_tokens_per_s,goodput_requests_per_s,preemptions,rejected,average_power_w,"
                     "steady_state_s,steady_output_tokens,steady_throughput_tokens_per_s,steady_energy_per_token_pj,"
                     "steady_power_w,steady_iterations,steady_sequence_iterations,param.system,"
                 "param.sequence_length,param.extra axis\n") != std::string::npos);
  CHECK(out.find("ids p0000,p0001,p0002\n") != std::string::npos);
  CHECK(out.find("makespan_s 0.130160,0.130160,0.000000\n") != std::string::npos);
  CHECK(out.find("sequence_length int64 [1400, 150, 150]\n") != std::string::npos);
  CHECK(out.find("param.system CPU,CPU/PHU,GPU/PHU\n") != std::string::npos);
  CHECK(out.find("created 1970-01-01T00:00:00Z\n") != std::string::npos);
  CHECK(out.find("points p0000,p0001,p0002\n") != std::string::npos);
  CHECK(out.find("attrs status,error,system,sequence_length\n") != std::string::npos);
  CHECK(out.find("tasks 9 int64\n") != std::string::npos);
  CHECK(out.find("empty (0,) 14\n") != std::string::npos);
  CHECK(out.find("steps int32 [0, 0, 0, 0, 1, 1, 1, 1, 2]\n") != std::string::npos);
}

TEST_CASE("seed table: the original's headings, 5-decimal makespans, errors for failures") {
  const ResultsFile f = sample_file();
  std::vector<PointSummary> rows;
  for (const PointResult& p : f.points) rows.push_back(p.summary);
  const std::string table = format_seed_table(rows);
  INFO(table);
  std::istringstream lines(table);
  std::string heading;
  std::getline(lines, heading);
  CHECK(heading.rfind("Hardware", 0) == 0);
  for (const char* column : {"moc_sequence_length[tok]", "Makespan[s]", "num_nodes",
                             "total_energy[pj]", "num_photonic", "posiable_photonic"}) {
    CHECK(heading.find(column) != std::string::npos);
  }
  CHECK(table.find(" 0.13016 ") != std::string::npos);
  CHECK(table.find("46733526484.6") != std::string::npos);
  CHECK(table.find("failed: no hardware in system 'GPU/PHU' supports op 'softmax_7'") !=
        std::string::npos);
  std::string row;
  std::getline(lines, row);  // columns line up: the makespan ends where its heading ends
  CHECK(row.find("0.13016") + 7 == heading.find("Makespan[s]") + 11);
}

TEST_CASE("seed table: a generate point adds TTFT TPOT and energy per token") {
  const ResultsFile f = sample_file();
  std::vector<PointSummary> rows{f.points[0].summary, f.points[1].summary};
  CHECK(format_seed_table(rows).find("TTFT[s]") == std::string::npos);  // none generates
  rows[1].stage = "generate";
  rows[1].parts = kGraphFigures | kGenerationFigures | kPerTokenEnergy;
  rows[1].new_tokens = 32;
  rows[1].ttft_s = 0.0123456;
  rows[1].tpot_s = 0.0004567;
  rows[1].energy_per_token_pj = 4.25e9;
  const std::string table = format_seed_table(rows);
  INFO(table);
  std::istringstream lines(table);
  std::string heading, prefill, generate;
  std::getline(lines, heading);
  std::getline(lines, prefill);
  std::getline(lines, generate);
  // Right-aligned under their headings, after the original's columns.
  CHECK(heading.find("posiable_photonic") < heading.find("TTFT[s]"));
  CHECK(generate.find("0.012346") + 8 == heading.find("TTFT[s]") + 7);
  CHECK(generate.find("0.000457") + 8 == heading.find("TPOT[s]") + 7);
  CHECK(generate.size() == heading.size());
  CHECK(generate.find("4250000000.0") + 12 == generate.size());
  CHECK(prefill.size() > 3);
  CHECK(prefill.compare(prefill.size() - 3, 3, "  -") == 0);  // not a generate point
  const std::string details = format_point_details(PointResult{rows[1], {}, {}, {}, {}, {}, {}, {}});
  CHECK(details.find("time to first token 0.012345600 s, time per output token 0.000456700 s") != std::string::npos);
}

TEST_CASE("point details: energy by hardware and category, units, subgraph reuse") {
  const std::string text = format_point_details(sample_file().points[1]);
  INFO(text);
  CHECK(text.find("subgraphs 25: 3 solved, 22 reused") != std::string::npos);
  CHECK(text.find("compute") < text.find("data_movement"));
  CHECK(text.find("conversion") != std::string::npos);
  CHECK(text.find("utilisation[%]") != std::string::npos);
  CHECK(text.find("25.00") != std::string::npos);
  CHECK(text.find("0.000123457") != std::string::npos);  // 123456789 ps busy
  CHECK(text.find("sram->cpu  link") != std::string::npos);
  CHECK(text.find("8589934592") != std::string::npos);   // link bytes
  CHECK(text.find("(130160000150 ps), analytical 0.130160000 s") != std::string::npos);
  const std::string failed = format_point_details(sample_file().points[2]);
  CHECK(failed.find("failed") != std::string::npos);
  CHECK(failed.find("softmax_7") != std::string::npos);
}

TEST_CASE("seconds from picoseconds are exact") {
  CHECK(format_seconds(Time::ps(30667070000000), 5) == "30.66707");
  CHECK(format_seconds(Time::ps(1234567), 9) == "0.000001235");
  CHECK(format_seconds(Time::zero(), 9) == "0.000000000");
  CHECK(format_seconds(Time::ps(-1500), 9) == "-0.000000002");  // a difference of times
  CHECK(format_seconds(Time::ps(999999999999), 0) == "1");
}

TEST_CASE("listing: one line per task in start order, ties by id") {
  const PointResult p = sample_file().points[0];
  std::ostringstream out;
  write_listing(out, p);
  std::istringstream lines(out.str());
  std::string line;
  std::getline(lines, line);
  CHECK(line.find("start[s]") != std::string::npos);
  CHECK(line.find("outputs") != std::string::npos);
  int64_t last_start = -1;
  int64_t last_id = -1;
  size_t count = 0;
  while (std::getline(lines, line)) {
    std::istringstream cells(line);
    std::string seconds;
    int64_t start = 0;
    cells >> seconds >> start;
    std::string hardware, core, op, name;
    cells >> hardware >> core >> op >> name;
    const std::string id_text = name.substr(4, name.find('/') - 4);  // "node<id>[/mm<id>]"
    const int64_t id = std::stoll(id_text);
    CHECK((start > last_start || (start == last_start && id > last_id)));
    CHECK(seconds == format_seconds(Time::ps(start), 9));
    last_start = start;
    last_id = id;
    ++count;
  }
  CHECK(count == p.tasks.size());
  CHECK(out.str().find("[1, 150, 768]") != std::string::npos);
}
