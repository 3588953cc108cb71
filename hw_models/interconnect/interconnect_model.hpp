#pragma once
// The interconnect family's cost model (`family: interconnect`): one unit per dimension that
// runs exactly the collective kinds (ir::is_collective: all_reduce, all_gather,
// reduce_scatter, send_recv), each op having one input and one output and a `ranks`
// attribute (the group's size, an integer >= 2). An op whose ranks exceed the dimension's
// devices is not supported here (another dimension of the system may carry it); a missing or
// malformed `ranks`, or not one input and one output, is a lightcode::Error naming the op.
// estimate() is estimate_collective (collective_cost.hpp) on the op's buffer bytes; its
// energy is charged to the `communication` part of the breakdown. Collectives on one dimension
// run one at a time (unit_count 1). Static power: the spec's (0 in the shipped files: no
// sourced figure).
#include <memory>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/interconnect/interconnect_spec.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {

enum InterconnectAlgorithm : AlgorithmId {
  kCollectiveTuned = 0,  // the registered (algorithm, protocol) NCCL's tuner would pick
};

std::unique_ptr<HardwareModel> make_interconnect_model(const InterconnectSpec& spec);
std::vector<AlgorithmInfo> interconnect_algorithms();
// The op's `ranks` attribute; throws lightcode::Error naming the op when it is absent, not an
// integer, or below 2.
int64_t collective_ranks(const ir::Node& op);
// The op's buffer bytes as collective_cost.hpp defines them; throws naming the op unless it
// has one input and one output.
int64_t collective_bytes(const ir::Node& op);

}  // namespace lightcode::hw
