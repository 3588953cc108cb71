// Scenario expansion: axes by path, ranges, zip, and clear errors for bad input.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "sim/core/error.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/sweep/crossover.hpp"
#include "sim/sweep/scenario.hpp"
#include "sim/point/pipeline.hpp"
#include "sim/stages/stage_rows.hpp"
#include "sim/sweep/tables.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/scenario_text.hpp"

using namespace lightcode;

namespace {

std::string write(const std::string& stem, const std::string& body) {
  const std::string path = "/tmp/lightcode_scenario_" + stem + "_" + std::to_string(::getpid()) + ".yaml";
  std::ofstream(path) << test::scenario_text("model: gpt2\nsequence_length: 64\nsystem: " + test::source_dir() +
                                                 "/configs/systems/lightcode/cpu_phu.yaml\nprofile: lightcode\n"
                                                 "fidelity: analytical\n",
                                             body);
  return path;
}

std::string scenario_table_default(const char* key) { return sweep::scenario_table().find(key)->default_text; }

std::string error_of(const std::string& path) {
  try {
    sweep::load_scenario(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("three axes give the product of their points, parameters in axis order") {
  const std::string sys = test::source_dir() + "/configs/systems/";
  const auto path = write("three", "sweep:\n  system: [" + sys + "cpu_phu.yaml, " + sys + "gpu_phu.yaml]\n"
                                   "  sequence_length: {start: 100, stop: 300, step: 100}\n"
                                   "  phu.cores: {start: 1, stop: 8, factor: 2}\n");
  const sweep::Scenario s = sweep::load_scenario(path);
  REQUIRE(s.points.size() == 2 * 3 * 4);
  CHECK(s.points[0].id == "p0000");
  CHECK(s.points[23].id == "p0023");
  // The last axis moves fastest.
  CHECK(s.points[1].parameters[2] == std::make_pair(std::string("phu.cores"), std::string("2")));
  CHECK(s.points[4].sequence_length == 200);
  CHECK(s.points[12].system.find("gpu_phu.yaml") != std::string::npos);
  // A hardware axis becomes an override of the system config.
  REQUIRE(s.points[3].overrides.size() == 1);
  CHECK(s.points[3].overrides[0] == std::make_pair(std::string("units.phu.cores"), std::string("8")));
  CHECK(sweep::system_config(s.points[3]).at("units").at("phu").positive_int("cores") == 8);
  std::remove(path.c_str());
}

TEST_CASE("zip axes advance together") {
  const auto path = write("zip", "sweep:\n  objective: [time, energy]\n  zip:\n    phu.cores: [1, 2, 4]\n    phu.multiplex: [64, 32, 16]\n");
  const sweep::Scenario s = sweep::load_scenario(path);
  REQUIRE(s.points.size() == 6);
  CHECK(s.points[2].overrides[0].second == "4");
  CHECK(s.points[2].overrides[1].second == "16");
  std::remove(path.c_str());
}

TEST_CASE("an unknown axis path is a clear error") {
  const auto path = write("unknown", "sweep:\n  phu.coers: [1, 2]\n");
  const std::string msg = error_of(path);
  CHECK(msg.find(":7:") != std::string::npos);
  CHECK(msg.find("unknown sweep axis 'phu.coers': unit 'phu' has no key 'coers'") != std::string::npos);
  const auto path2 = write("unknown2", "sweep:\n  tpu.cores: [1, 2]\n");
  CHECK(error_of(path2).find("unknown sweep axis 'tpu.cores'") != std::string::npos);
  CHECK(error_of(path2).find("cpu, phu, hbm, sram") != std::string::npos);
  std::remove(path.c_str());
  std::remove(path2.c_str());
}

TEST_CASE("an empty axis is a clear error") {
  const auto path = write("empty", "sweep:\n  sequence_length: []\n");
  CHECK(error_of(path).find("sweep axis 'sequence_length' is empty") != std::string::npos);
  const auto path2 = write("empty2", "sweep:\n  sequence_length: {start: 10, stop: 5, step: 1}\n");
  CHECK(error_of(path2).find("the axis is empty") != std::string::npos);
  std::remove(path.c_str());
  std::remove(path2.c_str());
}

TEST_CASE("zip axes of different lengths are a clear error") {
  const auto path = write("mismatch", "sweep:\n  zip:\n    phu.cores: [1, 2, 4]\n    phu.multiplex: [64, 32]\n");
  const std::string msg = error_of(path);
  CHECK(msg.find(":9:") != std::string::npos);
  CHECK(msg.find("zip axis 'phu.multiplex' has 2 values but 'phu.cores' has 3") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("every shipped scenario loads: each value it sets is read by some point") {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() + "/scenarios")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  CHECK(files.size() >= 5);
  for (const std::string& file : files) {
    CAPTURE(file);
    // A crossover study lists its `systems`; the rest are sweep scenarios.
    if (ConfigNode::load_file(file).has("systems")) {
      CHECK_NOTHROW(sweep::load_crossover(file));
    } else {
      size_t points = 0;
      CHECK_NOTHROW(points = sweep::load_scenario(file).points.size());
      CHECK(points > 0);
    }
  }
  CHECK(sweep::load_scenario(test::source_dir() + "/scenarios/phu_scaling.yaml").points.size() == 224);
}

TEST_CASE("a scenario key no point reads names the file, line and key") {
  std::string msg = error_of(write("unread_new", "new_tokens: 32\n"));
  CHECK(msg.find(":6:") != std::string::npos);
  CHECK(msg.find("key 'new_tokens' is set but not read by this scenario (no point has stage: generate)") !=
        std::string::npos);
  msg = error_of(write("unread_traced", "traced_length: 5\n"));
  CHECK(msg.find(":6:") != std::string::npos);
  CHECK(msg.find("key 'traced_length' is set but not read by this scenario (no point has a TVM or ONNX graph file for model)") !=
        std::string::npos);
  // An axis value no point reads: 8 goes with the prefill point only.
  const std::string path = write("unread_axis", "sweep:\n  zip:\n    stage: [prefill, generate]\n    new_tokens: [8, 16]\n");
  msg = error_of(path);
  CHECK(msg.find(path + ":9:") == 0);
  CHECK(msg.find("sweep axis 'new_tokens': value 8 is set but not read by any point of this scenario") != std::string::npos);
}

TEST_CASE("`logits:` is read for built-in models only, and a graph file with it is an error") {
  const sweep::Scenario s = sweep::load_scenario(write("logits_all", "logits: all\n"));
  REQUIRE(s.points.size() == 1);
  CHECK(s.points[0].logits == "all");
  CHECK(sweep::load_scenario(write("logits_default", "")).points[0].logits.empty());  // the profile's default
  CHECK(error_of(write("logits_bad", "logits: some\n")).find("logits") != std::string::npos);
  if (!test::have_external(test::tvm_graph("gpt2_prefill_seq5_graph.json"))) return;
  const std::string msg = error_of(write("logits_tvm", "logits: last\nsweep:\n  model: [" + test::tvm_graph("gpt2_prefill_seq5_graph.json") + "]\n"));
  CHECK(msg.find("key 'logits' is set but not read by this scenario (no point has a built-in model)") != std::string::npos);
}

TEST_CASE("a value some points read counts as read, a file value every point's axis replaces does not") {
  // new_tokens in the file is read by the generate points of the stage axis.
  const sweep::Scenario s = sweep::load_scenario(write("some", "new_tokens: 8\nsweep:\n  stage: [prefill, generate]\n"));
  REQUIRE(s.points.size() == 2);
  CHECK(s.points[1].new_tokens == 8);
  // Both new_tokens values reach a generate point of the product.
  CHECK(sweep::load_scenario(write("product", "sweep:\n  stage: [prefill, generate]\n  new_tokens: [8, 16]\n"))
            .points.size() == 4);
  // A file value that an axis replaces in every point is read by none: an error at its line.
  const std::string path = "/tmp/lightcode_scenario_replaced_" + std::to_string(::getpid()) + ".yaml";
  std::ofstream(path) << "model: gpt2\nsequence_length: 64\nsystem: " << test::system_file("cpu_phu")
                      << "\nsweep:\n  sequence_length: [16, 32]\n";
  try {
    sweep::load_scenario(path);
    FAIL("expected an unread-key error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find(path + ":2:") == 0);
    CHECK(std::string(e.what()).find("key 'sequence_length' is set but not read") != std::string::npos);
  }
  std::remove(path.c_str());
}

TEST_CASE("the scenario tables: every default parses, every key has a doc, points take the defaults") {
  CHECK(check_defaults(sweep::scenario_table()).empty());
  CHECK(check_defaults(sweep::sweep_range_table()).empty());
  const sweep::PointSpec p = sweep::load_scenario(write("defaults", "")).points[0];
  const sweep::PointSpec built_in_code;  // crossover points and tests build PointSpecs directly
  CHECK(p.stage == built_in_code.stage);
  CHECK(p.objective == built_in_code.objective);
  CHECK(p.fidelity == Fidelity::analytical);  // set by write(); the table's default is event
  CHECK(std::string(fidelity_name(built_in_code.fidelity)) == scenario_table_default("fidelity"));
  CHECK(built_in_code.profile == scenario_table_default("profile"));
}

TEST_CASE("ranges are counted before any value is made: 1e300 starts and 1e9 points are errors") {
  // `v += 1` never advances at 1e300: materialising this range used to loop forever.
  CHECK(error_of(write("r1", "sweep:\n  sequence_length: {start: 1e300, stop: 2e300, step: 1}\n"))
            .find("sweep.sequence_length: the range has 1e+300 values, above the limit of 100000 (axis_values)") !=
        std::string::npos);
  CHECK(error_of(write("r2", "sweep:\n  sequence_length: {start: 1, stop: 1e9, step: 1}\n"))
            .find("the range has 1000000000 values, above the limit of 100000") != std::string::npos);
  CHECK(error_of(write("r3", "sweep:\n  sequence_length: {start: 1, stop: 1e300, factor: 1.0000001}\n"))
            .find("above the limit of 100000") != std::string::npos);
  // Each axis within its limit, their product not.
  CHECK(error_of(write("r4", "sweep:\n  sequence_length: {start: 1, stop: 1000, step: 1}\n"
                             "  phu.cores: {start: 1, stop: 1000, step: 1}\n"))
            .find("sweep: the sweep has 1000000 points, above the limit of 100000 (points)") != std::string::npos);
}

TEST_CASE("sequence lengths and new_tokens above their limits are errors at their keys") {
  CHECK(error_of(write("n1", "stage: generate\nnew_tokens: 1000000000\n"))
            .find("new_tokens: must be an integer from 1 to 65536 (new_tokens), got 1000000000") != std::string::npos);
  const std::string msg = error_of(write("n2", "sweep:\n  sequence_length: [64, 16777217]\n"));
  CHECK(msg.find("must be an integer from 1 to 16777216 (sequence_length), got 16777217") != std::string::npos);
  CHECK(error_of(write("n3", "stage: generate\nnew_tokens: 65536\nsweep:\n  sequence_length: [16777000]\n"))
            .find("sequence_length + new_tokens = 16842536 is above the limit of 16777216") != std::string::npos);
}

TEST_CASE("a scenario name above the name limit is a clear error") {
  CHECK(error_of(write("long", "name: " + std::string(2000, 'n') + "\n"))
            .find("name: a scenario name is 1 to 1024 bytes") != std::string::npos);
}

TEST_CASE("`scheduler:` names a registered policy, and the objective comes from the objective registry") {
  const sweep::Scenario s = sweep::load_scenario(write("sched", "scheduler: lightcode\n"));
  CHECK(s.points[0].scheduler == "lightcode");
  CHECK(sweep::load_scenario(write("nosched", "")).points[0].scheduler.empty());  // the profile's default
  CHECK(error_of(write("badsched", "scheduler: fifo\n")).find("scheduler: unknown scheduler 'fifo' (known: list, lightcode)") !=
        std::string::npos);
  CHECK(error_of(write("badobj", "objective: speed\n")).find("objective: unknown objective 'speed' (known: time, energy, edp)") !=
        std::string::npos);
}

TEST_CASE("`precision:` is a count of bits, a sweep axis, and above the limit an error at its key") {
  const std::string h100 = test::source_dir() + "/configs/systems/h100_sxm.yaml";
  const std::string dota = test::source_dir() + "/configs/systems/gpu_dota_b.yaml";
  const sweep::Scenario s = sweep::load_scenario(
      write("precision_axis", "sweep:\n  profile: [default]\n  system: [" + dota + "]\n  precision: [4, 8]\n"));
  REQUIRE(s.points.size() == 2);
  CHECK(s.points[0].precision == 4);
  CHECK(s.points[1].precision == 8);
  CHECK(sweep::load_scenario(write("precision_none", "")).points[0].precision == 0);
  const std::string path = write("precision_big", "precision: 32\n");
  const std::string msg = error_of(path);
  CHECK(msg.find(path + ":") != std::string::npos);
  CHECK(msg.find("precision: must be an integer from 1 to 24 (precision_bits), got 32") != std::string::npos);
  // Read only by a system with a unit that models precision: the per-number PHU does not, so
  // on it alone the value is an error, and beside a DOTA-B system it is read.
  CHECK(error_of(write("precision_unread", "precision: 8\n"))
            .find("key 'precision' is set but not read by this scenario (no point has a system with a unit "
                  "that models precision") != std::string::npos);
  const sweep::Scenario mixed = sweep::load_scenario(
      write("precision_mixed", "precision: 8\nsweep:\n  profile: [default]\n  system: [" + h100 + ", " + dota + "]\n"));
  CHECK(mixed.points.size() == 2);
}
