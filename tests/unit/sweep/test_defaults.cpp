// One home per default: a spec struct's member initialisers are its table's defaults. Each
// table is parsed with nothing but its required keys and compared with a default-constructed
// spec, so a default changed in one place only fails here. Every table's defaults parse.
#include <doctest/doctest.h>

#include <string>
#include <typeinfo>

#include "hw_models/cpu/cpu_spec.hpp"
#include "hw_models/gpu/gpu_spec.hpp"
#include "hw_models/link/link_spec.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "hw_models/phu/phu_spec.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/joint/joint_placement.hpp"
#include "sim/serve/batching_continuous.hpp"
#include "sim/serve/batching_prefill_first.hpp"
#include "sim/serve/batching_static.hpp"
#include "sim/serve/generator.hpp"
#include "sim/serve/pipeline_cost.hpp"
#include "sim/serve/register_policies.hpp"
#include "sim/serve/simulator.hpp"
#include "sim/stages/stage.hpp"
#include "sim/stages/stage_rows.hpp"
#include "sim/sweep/scenario.hpp"
#include "sim/sweep/tables.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

// Whether two objects have the same dynamic type (named references: typeid of an expression
// with side effects is a warning).
template <class T>
bool same_type(const T& a, const T& b) {
  return typeid(a) == typeid(b);
}

// `node` (a shipped file's mapping) without the keys `table` gives a default: what a file
// that leaves every default to the table says.
ConfigNode required_only(ConfigNode node, const ParamTable& table) {
  for (const Param& p : table.params) {
    if (p.presence == Presence::defaulted) node = node.without(p.key);
  }
  return node;
}

ConfigNode hardware(const std::string& file) {
  return ConfigNode::load_file(test::source_dir() + "/configs/hardware/" + file);
}

template <class Made>
std::shared_ptr<const Made> parse_policy(const std::string& yaml, const ParamTable& base, const char* selector,
                                         const serve::PolicyList<Made>& entries) {
  ConfigUsage usage;
  return serve::read_selected(ConfigNode::parse(yaml, "test"), base, selector, entries, "policy", usage).made;
}

}  // namespace

TEST_CASE("every default of every table parses as its type, and every key has a doc") {
  std::vector<const ParamTable*> tables{&sweep::scenario_table(), &sweep::sweep_range_table(), &sweep::crossover_table(),
                                        &hw::cpu_params(), &hw::gpu_params(), &hw::memory_params(),
                                        &hw::phu_params(), &hw::link_params(), &serve::requests_table()};
  for (const auto& s : sweep::stages()) tables.push_back(s.params);
  const serve::ServePolicies& p = serve::policies();
  for (const auto& e : p.batching) tables.push_back(e.params);
  for (const auto& e : p.dispatch) tables.push_back(e.params);
  for (const auto& e : p.arrival) tables.push_back(e.params);
  for (const auto& e : p.length) tables.push_back(e.params);
  for (const ParamTable* t : tables) {
    CAPTURE(t->name);
    CHECK(check_defaults(*t).empty());
  }
}

TEST_CASE("a scenario's point takes the tables' defaults: PointSpec's and ServePoint's initialisers") {
  const std::string system = test::source_dir() + "/configs/systems/gpu.yaml";
  const sweep::PointSpec code;
  const sweep::PointSpec read =
      sweep::parse_scenario("model: gpt2\nsequence_length: 8\nsystem: " + system + "\n", "minimal.yaml", ".").points[0];
  CHECK(read.stage == code.stage);
  CHECK(read.objective == code.objective);
  CHECK(read.profile == code.profile);
  CHECK(read.scheduler == code.scheduler);
  CHECK(read.fidelity == code.fidelity);
  CHECK(read.pareto == code.pareto);
  CHECK(read.placement_evaluations == code.placement_evaluations);
  CHECK(read.logits == code.logits);
  CHECK(read.precision == code.precision);
  // The joint search and the serving pipeline take the same default as a scenario.
  CHECK(joint::JointOptions{}.evaluations == code.placement_evaluations);
  CHECK(serve::PipelineCostOptions{}.joint_evaluations == code.placement_evaluations);

  const sweep::ServePoint serve_code;
  const sweep::PointSpec serve_read = sweep::parse_scenario(
      "model: gpt2\nstage: serve\nsystem: " + system +
          "\nrequests: {count: 1, prompt: {distribution: fixed, value: 8}, output: {distribution: fixed, value: 2}}\n"
          "arrival_rate: 1 req/s\n",
      "serve.yaml", ".").points[0];
  const sweep::ServePoint& s = serve_read.serve;
  CHECK(s.iteration_cost == serve_code.iteration_cost);
  CHECK(s.cost_grid_bits == serve_code.cost_grid_bits);
  CHECK(s.dispatch_policy == serve_code.dispatch_policy);
  CHECK(s.slo_ttft == serve_code.slo_ttft);
  CHECK(s.slo_tpot == serve_code.slo_tpot);
  const serve::ServeSpec serve_defaults;
  const serve::GeneratorSpec generator_defaults;
  CHECK(same_type(*s.dispatch, *serve_defaults.dispatch));
  CHECK(s.generator.seed == serve::GeneratorSpec{}.seed);
  CHECK(same_type(*s.generator.arrival, *generator_defaults.arrival));
  // Batching: no `batching:` at all is the continuous policy's defaults.
  const auto& batching = dynamic_cast<const serve::ContinuousBatching&>(*s.replicas.at(0).batching);
  CHECK(batching.max_batch == serve::ContinuousBatching{}.max_batch);
  CHECK(batching.token_budget == serve::ContinuousBatching{}.token_budget);
}

TEST_CASE("each batching policy's parse of an empty mapping is its default-constructed self") {
  const serve::ServePolicies& p = serve::policies();
  const auto continuous = parse_policy<serve::Batcher>("{}", serve::batching_table(), "policy", p.batching);
  const auto& c = dynamic_cast<const serve::ContinuousBatching&>(*continuous);
  CHECK(c.max_batch == serve::ContinuousBatching{}.max_batch);
  CHECK(c.token_budget == serve::ContinuousBatching{}.token_budget);
  const auto fixed = parse_policy<serve::Batcher>("{policy: static}", serve::batching_table(), "policy", p.batching);
  const auto& st = dynamic_cast<const serve::StaticBatching&>(*fixed);
  CHECK(st.max_batch == serve::StaticBatching{}.max_batch);
  CHECK(st.timeout == serve::StaticBatching{}.timeout);
  const auto first = parse_policy<serve::Batcher>("{policy: prefill_first}", serve::batching_table(), "policy", p.batching);
  const auto& pf = dynamic_cast<const serve::PrefillFirstBatching&>(*first);
  CHECK(pf.max_batch == serve::PrefillFirstBatching{}.max_batch);
  CHECK(pf.token_budget == serve::PrefillFirstBatching{}.token_budget);
  const auto dispatch = parse_policy<serve::Dispatcher>("{}", serve::dispatch_table(), "policy", p.dispatch);
  CHECK(same_type(*dispatch, *serve::ServeSpec{}.dispatch));
}

TEST_CASE("hardware specs: the defaults of a file with only the required keys are the structs' initialisers") {
  {
    const hw::CpuSpec read = hw::parse_cpu_spec(required_only(hardware("xeon_8480.yaml"), hw::cpu_params()));
    const hw::CpuSpec code;
    CHECK(read.vector_flops_per_cycle == code.vector_flops_per_cycle);
    CHECK(read.memory_bandwidth == code.memory_bandwidth);
    CHECK(read.energy_per_cycle_j == code.energy_per_cycle_j);
    CHECK(read.energy_per_mac_j == code.energy_per_mac_j);
    CHECK(read.gemm_efficiency == code.gemm_efficiency);
  }
  {
    const hw::GpuSpec read = hw::parse_gpu_spec(required_only(hardware("h100_sxm.yaml"), hw::gpu_params()));
    const hw::GpuSpec code;
    CHECK(read.sfus_per_sm == code.sfus_per_sm);
    CHECK(read.static_power_w == code.static_power_w);
    CHECK(read.fuse_all == code.fuse_all);
  }
  {
    const hw::MemorySpec read = hw::parse_memory_spec(required_only(hardware("hbm3.yaml"), hw::memory_params()));
    const hw::MemorySpec code;
    CHECK(read.clock_hz == code.clock_hz);
    CHECK(read.op_energy_j == code.op_energy_j);
  }
  {
    const hw::PhuSpec read = hw::parse_phu_spec(required_only(hardware("phu_lightcode.yaml"), hw::phu_params()));
    const hw::PhuSpec code;
    CHECK(read.energy_per_mac_j == code.energy_per_mac_j);
    CHECK(read.dac.count == code.dac.count);
    CHECK(read.static_power_w == code.static_power_w);
  }
  {
    ConfigUsage usage;
    const hw::LinkSpec read = hw::parse_link_spec(Params(ConfigNode::parse("{src: a, dst: b}", "link"), hw::link_params(), usage));
    const hw::LinkSpec code;
    CHECK(read.bidirectional == code.bidirectional);
    CHECK(read.latency_s == code.latency_s);
    CHECK(read.bandwidth == code.bandwidth);
  }
}
