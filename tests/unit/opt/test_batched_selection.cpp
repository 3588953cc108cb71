// Batched iteration graphs (a batch's per-sequence attention chains are parallel branches in
// one layer). The time and energy objectives keep at most 12 states (a layer's chains close
// one after another in the builder's order); EDP keeps a Pareto front per state, thousands of
// alternatives in a 32-sequence layer, which is where its time goes (docs/PERFORMANCE.md).
// The timings are printed for measurement; the check is on the state.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "frontend/models/batch.hpp"
#include "frontend/models/model_builder.hpp"
#include "frontend/models/model_config.hpp"
#include "hw_models/registry.hpp"
#include "hw_models/system.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "tests/support/paths.hpp"

using namespace lightcode;

namespace {

frontend::Batch decodes(int count, int64_t first_context, int64_t last_context) {
  frontend::Batch b;
  for (int i = 0; i < count; ++i) {
    b.sequences.push_back(
        {1, first_context + (last_context - first_context) * i / (count > 1 ? count - 1 : 1)});
  }
  return b;
}

}  // namespace

TEST_CASE("batched gpt2 iterations: placement time and selection state") {
  const frontend::ModelConfig gpt2 = frontend::builtin_model("gpt2");
  frontend::Batch mixed = decodes(8, 100, 1000);
  mixed.sequences.push_back({256, 0});
  for (const char* name : {"h100_sxm", "gpu_dota_b"}) {
    const hw::System system =
        hw::System::load(test::system_file(name), hw::profile_named("default"));
    const double static_w = hw::static_power_watts(system);
    for (const frontend::Batch& batch : {decodes(32, 100, 1000), mixed}) {
      const ir::Graph g = frontend::build_iteration(gpt2, batch, frontend::Logits::last);
      const opt::StackedGraph stacks(g, system);
      const opt::Partition part = opt::partition_for(stacks);
      struct Run {
        opt::Objective o;
        double w;
        const char* what;
      };
      for (const Run& r :
           {Run{opt::Objective::time, 0.0, "time"}, Run{opt::Objective::energy, 0.0, "energy"},
            Run{opt::Objective::energy, static_w, "energy+P"},
            Run{opt::Objective::edp, static_w, "edp"}}) {
        const auto start = std::chrono::steady_clock::now();
        const opt::Placement placement = opt::place(stacks, part, r.o, true, r.w);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (r.o != opt::Objective::edp) CHECK(placement.peak_states <= 12);
        MESSAGE(std::string(name) << " " << batch.sequences.size() << " sequences "
                                  << std::string(r.what) << ": " << ms << " ms, peak states "
                                  << placement.peak_states);
      }
    }
  }
}

TEST_CASE("place_at_powers: each power's placement and counts are place()'s at that power") {
  // The joint search's energy seeds: a batch graph placed at powers from 0 to far above its
  // static power, in one pass (the powers whose subgraph problems are equal solved together).
  const frontend::ModelConfig gpt2 = frontend::builtin_model("gpt2");
  frontend::Batch mixed = decodes(6, 100, 1000);
  mixed.sequences.push_back({96, 0});
  for (const char* name : {"h100_sxm", "gpu_dota_b", "cpu_phu"}) {
    CAPTURE(name);
    const hw::System system = hw::System::load(test::system_file(name), hw::profile_named("default"));
    const ir::Graph g = frontend::build_iteration(gpt2, mixed, frontend::Logits::last);
    const opt::StackedGraph stacks(g, system);
    const opt::Partition part = opt::partition_for(stacks);
    const double static_w = hw::static_power_watts(system);
    const std::vector<double> watts{0.0, 1e-9, static_w, 1.0, 30.0, 300.0, 3000.0, 1e5};
    const std::vector<opt::Placement> many = opt::place_at_powers(stacks, part, opt::Objective::energy, watts);
    REQUIRE(many.size() == watts.size());
    bool differ = false;
    for (size_t l = 0; l < watts.size(); ++l) {
      CAPTURE(watts[l]);
      const opt::Placement one = opt::place(stacks, part, opt::Objective::energy, true, watts[l]);
      CHECK(many[l].choice == one.choice);
      CHECK(many[l].solved == one.solved);
      CHECK(many[l].reused == one.reused);
      CHECK(many[l].peak_states == one.peak_states);
      differ = differ || many[l].choice != many.front().choice;
    }
    if (std::string(name) != "h100_sxm") CHECK(differ);  // the powers move the answer: a real test
  }
}
