// The optimizer pipeline of bench_pipeline, run a given number of times: for instruction
// counts (tests/bench/count_instructions.sh), which are repeatable where wall-clock time on a
// shared VM is not (±20 % here), so that a change's cost can be measured to a fraction of a
// percent. Usage: pipeline_driver <model> <length> <system file> <profile> <runs>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/load_model.hpp"
#include "hw_models/system.hpp"
#include "sim/opt/expand.hpp"
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/sched/analytical.hpp"

using namespace lightcode;

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s <model> <length> <system file> <profile> <runs>\n", argv[0]);
    return 2;
  }
  frontend::ModelRequest request;
  request.model = argv[1];
  request.length = std::atoll(argv[2]);
  const hw::Profile& profile = hw::profile_named(argv[4]);
  request.logits = frontend::logits_for("", profile.logits_for_every_token());  // as run_point builds it
  const ir::Graph g = frontend::load_model(request);
  const hw::System system = hw::System::load(argv[3], profile);
  const std::vector<int> instances = sched::unit_instances(system);
  const sched::SchedulingPolicy& policy = sched::default_policies().at(profile.default_scheduler());
  int64_t makespan = 0;
  for (int i = 0, runs = std::atoi(argv[5]); i < runs; ++i) {
    const opt::StackedGraph stacks(g, system);
    const opt::Partition part = opt::partition_for(stacks);
    const opt::Placement placement = opt::place(stacks, part, opt::Objective::time);
    const opt::TaskGraph tasks = opt::expand(stacks, part, placement);
    makespan += sched::schedule(tasks, instances, policy).makespan.count_ps();
  }
  std::printf("%lld\n", static_cast<long long>(makespan));  // the work cannot be optimised away
  return 0;
}
