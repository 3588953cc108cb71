#pragma once
// What a collective (or a pipeline send/recv) costs on one interconnect dimension, as NCCL's
// tuner predicts it (src/graph/tuning.cc's structure: a latency term and a size/bandwidth
// term per algorithm and protocol, the least predicted time chosen). For each registered
// algorithm that runs the op here and each registered protocol (collective_algorithms.hpp):
//   time = algorithm base latency
//        + steps x (spec latency + transport step overhead + protocol step latency)
//        + buffer x traffic / (bandwidth x transport fraction x algorithm fraction
//                              x protocol wire efficiency x protocol throughput fraction)
// and the pair with the least time is the answer (ties: the first registered). Buffer bytes:
// all_reduce, reduce_scatter and send_recv the input tensor (the full buffer each rank holds,
// NCCL's "size"); all_gather the output (the gathered buffer). The energy is
// link bytes x 8 x energy_per_bit (joules; Cost/Energy report pJ), where link bytes are what
// all ranks together put on the links. Pure, const and allocation-free (the selector's path).
// A non-collective kind, ranks < 2, ranks > the dimension's devices or negative bytes is a
// lightcode::Error naming the op (`op` when given, else the kind).
#include <cstdint>
#include <string_view>

#include "hw_models/interconnect/collective_algorithms.hpp"
#include "hw_models/interconnect/interconnect_spec.hpp"
#include "sim/core/quantity.hpp"
#include "sim/ir/op_kind.hpp"

namespace lightcode::hw {

struct CollectiveCost {
  Time time;
  Energy energy;  // J inside, reported in pJ
  const CollectiveAlgorithm* algorithm = nullptr;
  const CollectiveProtocol* protocol = nullptr;
  int64_t steps = 0;        // sequential steps of the chosen algorithm
  int64_t link_bytes = 0;   // bytes all ranks put on the links
  double latency_s = 0.0;   // the time's latency term
  double transfer_s = 0.0;  // the time's size/bandwidth term
};

CollectiveCost estimate_collective(const InterconnectSpec& spec, ir::OpKind kind, int64_t bytes, int64_t ranks,
                                   std::string_view op = "");

}  // namespace lightcode::hw
