// `lightcode run` end to end: the seed table from the shipped scenario, the same figures from
// the TVM graph, the HDF5 file read back by Debian's h5py (skipped,
// exit 77, without it), and clear errors for bad scenarios.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/python.hpp"
#include "tests/support/run.hpp"

using lightcode::test::run_lightcode;
using lightcode::test::source_dir;

namespace {

std::string temp(const std::string& stem) {
  return "/tmp/lightcode_test_" + stem + "_" + std::to_string(::getpid());
}

// A scenario file in /tmp; "SYSTEMS/" in the body stands for the shipped configs/systems.
std::string write_scenario(const std::string& stem, std::string body) {
  const std::string dir = source_dir() + "/configs/systems/";
  for (size_t at; (at = body.find("SYSTEMS/")) != std::string::npos;) body.replace(at, 8, dir);
  const std::string path = temp(stem) + ".yaml";
  std::ofstream(path) << body;
  return path;
}

std::string table_rows(const std::string& out) {
  // The console table without the trailing "results:" line.
  return out.substr(0, out.find("results:"));
}

}  // namespace

TEST_CASE("run the shipped seed table: the published CPU and CPU/PHU rows") {
  const std::string h5 = temp("seed") + ".h5";
  const auto r = run_lightcode("run " + source_dir() + "/scenarios/seed_table.yaml --out " + h5);
  REQUIRE(r.exit_code == 0);
  for (const char* row : {"30.66707", "2.98404", "1.93061", "0.13016", "161644179672.6", "50184590920.6",
                          "134854955336.6", "46733526484.6"}) {
    CAPTURE(row);
    CHECK(r.out.find(row) != std::string::npos);
  }
  CHECK(r.out.find("posiable_photonic") != std::string::npos);
  std::remove(h5.c_str());
}

TEST_CASE("the shipped seed table's results file: h5py reads /summary with the console's figures") {
  lightcode::test::require_h5py();  // skipped (exit 77) without h5py
  const std::string h5 = temp("seed_h5py") + ".h5";
  const auto r = run_lightcode("run " + source_dir() + "/scenarios/seed_table.yaml --out " + h5);
  REQUIRE(r.exit_code == 0);
  const std::string script = temp("read") + ".py";
  std::ofstream(script) << "import h5py, sys\n"
                           "f = h5py.File(sys.argv[1], 'r')\n"
                           "s = f['summary'][:]\n"
                           "for row in s:\n"
                           "    print(row['system'].decode(), row['sequence_length'], '%.5f' % row['makespan_s'],\n"
                           "          row['nodes'], '%.1f' % row['energy_pj'], row['photonic_selected'], row['photonic_possible'])\n";
  const std::string cmd = lightcode::test::python() + " " + script + " " + h5;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string py;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) py += buf;
  const int status = ::pclose(pipe);
  INFO(py);
  CHECK(status == 0);
  CHECK(py.find("CPU 1400 30.66707 1108 161644179672.6 0 0") != std::string::npos);
  CHECK(py.find("CPU/PHU 150 0.13016 1518 46733526484.6 73 73") != std::string::npos);
  CHECK(py.find("GPU/PHU 1400") != std::string::npos);
  std::remove(script.c_str());
  std::remove(h5.c_str());
}

TEST_CASE("the seed table from the TVM GPT-2 graph (model overridden on the command line) is the same") {
  const std::string graph = lightcode::test::tvm_graph("gpt2_prefill_seq5_graph.json");
  if (!lightcode::test::have_external(graph)) return;
  const std::string a = temp("builtin") + ".h5", b = temp("tvm") + ".h5";
  const auto builtin = run_lightcode("run " + source_dir() + "/scenarios/seed_table.yaml --out " + a);
  const auto tvm = run_lightcode("run " + source_dir() + "/scenarios/seed_table.yaml --model " + graph + " --out " + b);
  REQUIRE(builtin.exit_code == 0);
  REQUIRE(tvm.exit_code == 0);
  CHECK(table_rows(tvm.out) == table_rows(builtin.out));
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST_CASE("--listing writes one line per task with start time, hardware, core, op, inputs, outputs") {
  const std::string path = write_scenario("one", "model: gpt2\nsequence_length: 20\nsystem: SYSTEMS/lightcode/cpu_phu.yaml\n"
                                                 "profile: lightcode\n");
  const std::string lst = temp("listing") + ".txt", h5 = temp("one") + ".h5";
  const auto r = run_lightcode("run " + path + " --out " + h5 + " --listing " + lst);
  REQUIRE(r.exit_code == 0);
  std::ifstream in(lst);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  CHECK(text.find("hardware") != std::string::npos);
  CHECK(text.find("matrix_matrix") != std::string::npos);
  CHECK(text.find("phu") != std::string::npos);
  std::remove(lst.c_str());
  std::remove(h5.c_str());
  std::remove(path.c_str());
}

TEST_CASE("a scenario naming a missing file is a clear error") {
  const std::string path = write_scenario("missing", "model: gpt2\nsequence_length: 20\nsystem: SYSTEMS/nope.yaml\n");
  const auto r = run_lightcode("run " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(":3:") != std::string::npos);
  CHECK(r.err.find("nope.yaml' does not exist") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("an unknown objective is a clear error") {
  const std::string path = write_scenario("objective", "model: gpt2\nsequence_length: 20\nsystem: SYSTEMS/cpu.yaml\n"
                                                       "objective: speed\n");
  const auto r = run_lightcode("run " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("objective: unknown objective 'speed' (known: time, energy, edp)") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("a zero sequence length is a clear error") {
  const std::string path = write_scenario("zero", "model: gpt2\nsequence_length: 0\nsystem: SYSTEMS/cpu.yaml\n");
  const auto r = run_lightcode("run " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(":2:") != std::string::npos);
  CHECK(r.err.find("sequence_length: must be an integer from 1 to 16777216 (sequence_length), got 0") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("a missing scenario file is a clear error") {
  const auto r = run_lightcode("run /nonexistent/scenario.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/nonexistent/scenario.yaml: cannot open scenario file") != std::string::npos);
}

TEST_CASE("a serve scenario's console table counts the requests rejected at arrival") {
  // gpt2 on one H100 holds about 2.1 M KV tokens beside its weights: a 3 M-token prompt never
  // fits, is rejected at its arrival (never priced), and the point still succeeds.
  const std::string trace = temp("serve_reject") + ".csv";
  std::ofstream(trace) << "arrival_s,prompt_tokens,output_tokens\n0,16,3\n0.0001,3000000,2\n";
  const std::string scenario = write_scenario(
      "serve_reject", "model: gpt2\nstage: serve\nplacement_evaluations: 4\nsystem: SYSTEMS/h100_sxm.yaml\ntrace: " +
                          trace + "\n");
  const std::string out = temp("serve_reject") + ".h5";
  const auto r = run_lightcode("run " + scenario + " --out " + out);
  INFO(r.err);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  // The heading's columns and the point's row, cell by cell (no cell here holds a space).
  const auto words = [](const std::string& line) {
    std::vector<std::string> w;
    std::istringstream in(line);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
  };
  const size_t table = r.out.find("serving:\n");
  REQUIRE(table != std::string::npos);
  std::istringstream lines(r.out.substr(table));
  std::string skip, heading, row;
  std::getline(lines, skip);
  std::getline(lines, heading);
  std::getline(lines, row);
  const std::vector<std::string> h = words(heading), v = words(row);
  REQUIRE(h.size() == v.size());
  const auto column = [&](const std::string& name) {
    for (size_t i = 0; i < h.size(); ++i) {
      if (h[i] == name) return v[i];
    }
    return std::string("(no column " + name + ")");
  };
  CHECK(column("requests") == "2");
  CHECK(column("rejected") == "1");
  std::remove(scenario.c_str());
  std::remove(trace.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a serve scenario prints its serving table, and a terminal sees each point finish") {
  const std::string trace = temp("serve_trace") + ".csv";
  std::ofstream(trace) << "arrival_s,prompt_tokens,output_tokens\n0,16,3\n0.0001,40,2\n0.0002,8,4\n";
  const std::string scenario = write_scenario(
      "serve", "model: gpt2\nstage: serve\nplacement_evaluations: 4\nreplicas:\n  - system: SYSTEMS/h100_sxm.yaml\n"
               "  - system: SYSTEMS/h100_sxm.yaml\ntrace: " + trace + "\nsweep:\n  dispatch.policy: [round_robin, least_outstanding_tokens]\n");
  const std::string out = temp("serve") + ".h5";
  const auto r = run_lightcode("run " + scenario + " --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("serving:\npoint  system") != std::string::npos);
  CHECK(r.out.find("TTFT_p99[s]") != std::string::npos);
  CHECK(r.out.find("p0001  H100-SXM + H100-SXM  least_outstanding_tokens         3") != std::string::npos);
  // A serve point has no placed graph of its own: no seed-table row of zeros.
  CHECK(r.out.find("moc_sequence_length") == std::string::npos);
  CHECK(r.err.find("[1/2]") == std::string::npos);  // not a terminal: no progress lines
  // Under a pseudo-terminal (util-linux `script`), one line per finished point.
  const std::string cmd = "script -qec '" + lightcode::test::lightcode_binary() + " run " + scenario + " --out " + out +
                          "' /dev/null";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string tty;
  char buf[4096];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, pipe)) > 0;) tty.append(buf, got);
  CHECK(::pclose(pipe) == 0);
  CHECK(tty.find("[1/2] p0000 ok, ") != std::string::npos);
  CHECK(tty.find("[2/2] p0001 ok, ") != std::string::npos);
  std::remove(trace.c_str());
  std::remove(scenario.c_str());
  std::remove(out.c_str());
}
