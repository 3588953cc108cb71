// The interconnect family: the collective cost model against the measured NCCL times (the
// must-show bound), its choice of algorithm and protocol by size, its errors, monotonicity,
// and the family as the rest of the program sees it (a model built from a hardware file
// through the registry, an all_reduce op estimated through the HardwareModel interface).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "hw_models/interconnect/collective_cost.hpp"
#include "hw_models/interconnect/interconnect_model.hpp"
#include "hw_models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/collective_validation.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;
using namespace lightcode::hw;

namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

std::string interconnect_file(const std::string& stem) {
  return test::source_dir() + "/configs/hardware/" + stem + ".yaml";
}

InterconnectSpec interconnect(const std::string& stem) {
  return parse_interconnect_spec(ConfigNode::load_file(interconnect_file(stem)));
}

std::string choice(const CollectiveCost& c) {
  return std::string(c.algorithm->name) + "/" + std::string(c.protocol->name);
}

std::string collective_error(const InterconnectSpec& spec, ir::OpKind kind, int64_t ranks) {
  try {
    estimate_collective(spec, kind, kMiB, ranks, "layer3.attn.all_reduce");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// An op as the sharding frontend emits it: one fp16 input, one output, `ranks` as text.
ir::Node collective_op(ir::OpKind kind, ir::Shape in, ir::Shape out, const std::string& ranks) {
  ir::Node op;
  op.kind = kind;
  op.kind_name = std::string(ir::op_kind_name(kind));
  op.name = "layer0.mlp." + op.kind_name;
  op.inputs = {ir::Input{0, 0}};
  op.input_types = {ir::TensorType{in, ir::DType::float16}};
  op.outputs = {ir::TensorType{out, ir::DType::float16}};
  if (!ranks.empty()) op.attrs.push_back({"ranks", ranks});
  return op;
}

std::unique_ptr<HardwareModel> model_from(const ConfigNode& spec) {
  const FamilyInfo* family = default_registry().find("interconnect");
  REQUIRE(family != nullptr);
  ConfigUsage usage;
  return family->model_for(profile_named("default"))(Params(spec, *family->params, usage));
}

}  // namespace

TEST_CASE("H100 DGX all_reduce from 1 MB up: mean |error| at most 15 % against the measured NCCL times") {
  const std::string csv = test::reference_dir() + "/network/vidur_h100_collectives.csv";
  if (!test::have_external(csv)) return;
  const results::CollectiveValidationFile f =
      validate::run_collective_validation({csv, test::source_dir() + "/configs/hardware"});
  double large = 0.0, small = 0.0;
  int n_large = 0, n_small = 0;
  for (const results::CollectiveValidationRow& r : f.rows) {
    if (r.system != "h100_dgx" || r.collective != "all_reduce") continue;
    REQUIRE(std::isfinite(r.error));
    if (r.size_bytes >= kMiB) {
      large += std::fabs(r.error);
      ++n_large;
    } else {
      small += std::fabs(r.error);
      ++n_small;
    }
  }
  REQUIRE(n_large > 2000);  // 2/4/8 GPUs, 1-64 MB
  MESSAGE("mean |error| >= 1 MB: " << 100.0 * large / n_large << " %; below 1 MB (not bounded): "
                                   << 100.0 * small / n_small << " %");
  CHECK(large / n_large <= 0.15);
  CHECK(f.rows.size() > 6900);  // every row of the reference predicted
}

TEST_CASE("the choice changes with size: a tree with LL128 for small all_reduce, NVLS or ring Simple for large") {
  const InterconnectSpec h100 = interconnect("nvlink4_nvswitch");
  const CollectiveCost small = estimate_collective(h100, ir::OpKind::all_reduce, 8 << 10, 8);
  const CollectiveCost large = estimate_collective(h100, ir::OpKind::all_reduce, 64 * kMiB, 8);
  CHECK(choice(small) == "tree/LL128");
  CHECK(choice(large) == "nvls/Simple");
  CHECK(small.latency_s > small.transfer_s);
  CHECK(large.transfer_s > large.latency_s);
  // Two ranks: NVLS sends (n+1)/n = 1.5 of the buffer each way, the ring 1: the ring wins.
  CHECK(choice(estimate_collective(h100, ir::OpKind::all_reduce, 64 * kMiB, 2)) == "ring/Simple");
  // The A100's NVSwitch does not reduce: no NVLS, the ring at large sizes.
  const InterconnectSpec a100 = interconnect("nvlink3_nvswitch");
  CHECK(choice(estimate_collective(a100, ir::OpKind::all_reduce, 64 * kMiB, 8)) == "ring/Simple");
  // all_gather and reduce_scatter run only on the ring; send_recv is one point-to-point transfer.
  CHECK(choice(estimate_collective(h100, ir::OpKind::all_gather, 64 * kMiB, 8)) == "ring/Simple");
  CHECK(choice(estimate_collective(h100, ir::OpKind::reduce_scatter, 8 << 10, 8)) == "ring/LL128");
  const CollectiveCost p2p = estimate_collective(h100, ir::OpKind::send_recv, 64 * kMiB, 2);
  CHECK(choice(p2p) == "p2p/Simple");
  CHECK(p2p.steps == 1);
  CHECK(p2p.link_bytes == 64 * kMiB);
}

TEST_CASE("a ring all_reduce on 8 ranks: 14 steps, 2(n-1) buffers on the links, energy = bits x energy per bit") {
  const InterconnectSpec a100 = interconnect("nvlink3_nvswitch");
  const int64_t bytes = 64 * kMiB;
  const CollectiveCost c = estimate_collective(a100, ir::OpKind::all_reduce, bytes, 8);
  REQUIRE(std::string(c.algorithm->name) == "ring");
  CHECK(c.steps == 14);
  CHECK(c.link_bytes == 14 * bytes);
  CHECK(c.energy.picojoules() == doctest::Approx(14.0 * bytes * 8.0 * a100.energy_per_bit_j * 1e12));
  CHECK(c.time.seconds() == doctest::Approx(c.latency_s + c.transfer_s).epsilon(1e-9));
  // The unseen A100 (300 GB/s, no NVLS) is slower than the H100 at the same size and constants.
  const CollectiveCost h = estimate_collective(interconnect("nvlink4_nvswitch"), ir::OpKind::all_reduce, bytes, 8);
  CHECK(h.time < c.time);
}

TEST_CASE("bad requests are errors naming the op: ranks below 2, ranks above the devices, a kind that is no collective") {
  const InterconnectSpec h100 = interconnect("nvlink4_nvswitch");
  const std::string one = collective_error(h100, ir::OpKind::all_reduce, 1);
  CHECK(one.find("op 'layer3.attn.all_reduce'") == 0);
  CHECK(one.find("ranks 1: a collective needs at least 2") != std::string::npos);
  const std::string many = collective_error(h100, ir::OpKind::all_reduce, 16);
  CHECK(many.find("op 'layer3.attn.all_reduce'") == 0);
  CHECK(many.find("ranks 16 exceed the 8 devices") != std::string::npos);
  CHECK(many.find("NVLink 4 + NVSwitch (DGX H100)") != std::string::npos);
  const std::string dense = collective_error(h100, ir::OpKind::dense, 8);
  CHECK(dense.find("kind 'dense' is not a collective") != std::string::npos);
  CHECK_THROWS_AS(estimate_collective(h100, ir::OpKind::send_recv, -1, 2), Error);
}

TEST_CASE("time is monotone in bytes for every collective on every shipped interconnect") {
  for (const char* stem :
       {"nvlink4_nvswitch", "nvlink3_nvswitch", "infiniband_ndr", "nvlink4_pairwise_bridge", "pcie5_x16"}) {
    CAPTURE(stem);
    const InterconnectSpec spec = interconnect(stem);
    for (const ir::OpKind kind :
         {ir::OpKind::all_reduce, ir::OpKind::all_gather, ir::OpKind::reduce_scatter, ir::OpKind::send_recv}) {
      CAPTURE(ir::op_kind_name(kind));
      for (int64_t ranks = 2; ranks <= spec.devices; ranks *= 2) {
        Time previous = Time::zero();
        for (int64_t bytes = 0; bytes <= (int64_t{1} << 34); bytes = bytes * 5 / 4 + 1) {
          const Time t = estimate_collective(spec, kind, bytes, ranks).time;
          CHECK(t >= previous);
          previous = t;
        }
      }
    }
  }
}

TEST_CASE("the family runs an all_reduce op through the HardwareModel interface") {
  const std::unique_ptr<HardwareModel> model = model_from(ConfigNode::load_file(interconnect_file("nvlink4_nvswitch")));
  REQUIRE(model);
  CHECK(model->unit_count() == 1);
  CHECK(model->static_power_watts() == 0.0);
  const ir::Node op = collective_op(ir::OpKind::all_reduce, {128, 8192}, {128, 8192}, "8");
  REQUIRE(model->supports(op));
  const AlgorithmList algorithms = model->algorithms(op);
  REQUIRE(algorithms.count == 1);
  CHECK(model->algorithm_name(algorithms.ids[0]) == "collective");
  const Cost cost = model->estimate(op, algorithms.ids[0]);
  const CollectiveCost direct =
      estimate_collective(interconnect("nvlink4_nvswitch"), ir::OpKind::all_reduce, 128 * 8192 * 2, 8);
  CHECK(cost.time == direct.time);
  CHECK(cost.energy == direct.energy);
  CHECK(cost.parts[EnergyPart::communication] == direct.energy);
  CHECK(cost.parts.total() == cost.energy);
  // all_gather's buffer is its output (the gathered tensor), not its input shard.
  const ir::Node gather = collective_op(ir::OpKind::all_gather, {128, 1024}, {128, 8192}, "8");
  CHECK(model->estimate(gather, 0).time ==
        estimate_collective(interconnect("nvlink4_nvswitch"), ir::OpKind::all_gather, 128 * 8192 * 2, 8).time);
  // Not collectives, or more ranks than this dimension's devices: another unit's ops.
  CHECK_FALSE(model->supports(collective_op(ir::OpKind::add, {4}, {4}, "")));
  CHECK_FALSE(model->supports(collective_op(ir::OpKind::all_reduce, {4}, {4}, "16")));
  // A malformed `ranks` is the graph's error, named.
  try {
    model->supports(collective_op(ir::OpKind::all_reduce, {4}, {4}, "eight"));
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "op 'layer0.mlp.all_reduce' (all_reduce): `ranks` is 'eight', not an integer");
  }
  CHECK_THROWS_AS(model->supports(collective_op(ir::OpKind::send_recv, {4}, {4}, "")), Error);
}

TEST_CASE("an interconnect unit loads from YAML: unknown keys and in-network reduction off a switch are rejected") {
  const std::string good =
      "family: interconnect\nname: x\ntopology: ring\ntransport: pcie\ndevices: 4\nbandwidth: 32 GB/s\n"
      "latency: 1 us\nenergy_per_bit: 5 pJ/bit\n";
  const InterconnectSpec spec = parse_interconnect_spec(ConfigNode::parse(good, "ring.yaml"));
  CHECK(spec.topology == InterconnectTopology::ring);
  CHECK(spec.bandwidth == doctest::Approx(32e9));
  CHECK_FALSE(spec.in_network_reduction);
  // A ring has no tree: a small all_reduce is the ring's.
  CHECK(std::string(estimate_collective(spec, ir::OpKind::all_reduce, 1024, 4).algorithm->name) == "ring");
  auto error_of = [](const std::string& yaml) {
    try {
      model_from(ConfigNode::parse(yaml, "bad.yaml"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string unknown = error_of(good + "bandwith: 3 GB/s\n");
  CHECK(unknown.find("bad.yaml:9:") == 0);
  CHECK(unknown.find("bandwith") != std::string::npos);
  const std::string reduce = error_of(good + "in_network_reduction: true\n");
  CHECK(reduce.find("bad.yaml:9:") == 0);
  CHECK(reduce.find("in-network reduction needs a switch") != std::string::npos);
  const std::string missing = error_of("family: interconnect\nname: x\ntopology: switch\ntransport: nvlink\n");
  CHECK(missing.find("devices") != std::string::npos);
}
