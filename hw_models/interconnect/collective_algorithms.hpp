#pragma once
// The registered collective algorithms and protocols (collective_algorithms(), protocols()),
// the objects NCCL's tuner chooses among. An algorithm says where it runs (topology and op
// kind), how many sequential steps it takes (each pays a step latency) and how much data the
// busiest rank sends per byte of the op's buffer (its traffic: the bandwidth term), and how
// many bytes all ranks together put on the links (the energy). Buffer = the op's bytes as
// collective_cost.hpp defines them, n = ranks:
//   ring   all_reduce 2(n-1) steps, 2(n-1)/n; reduce_scatter, all_gather n-1 steps, (n-1)/n;
//          links 2(n-1) x buffer (all_reduce), (n-1) x buffer (the others)
//   tree   all_reduce only, double binary tree (half the buffer on each of two trees, up to
//          reduce then down to broadcast): 2 ceil(log2 n) steps, 2 per byte on an interior
//          node; links 2(n-1) x buffer; not on a ring topology (a tree's edges are not ring links)
//   nvls   all_reduce only, switch with in-network reduction: each rank's shard is reduced by the
//          switch reading all ranks (multimem.ld_reduce) and multicast back (multimem.st), 2
//          steps; every rank sends and receives (n+1)/n of the buffer; links (n+1) x buffer
//   p2p    send_recv only: one transfer of the buffer, 1 step, 1 per byte; links 1 x buffer
// A protocol's wire efficiency (payload bytes per byte on the wire) is a property of its line
// format, from NCCL's device headers (src/include/device.h, formerly devcomm.h): LL sends
// 16-byte lines of two 4-byte data words each with a 4-byte flag (0.5); LL128 128-byte lines of
// 120 data bytes and an 8-byte flag (NCCL_LL128_DATAELEMS 15 of NCCL_LL128_LINEELEMS 16 words);
// Simple sends data bare (1). Fitted figures come from interconnect_fit.hpp.
#include <cstdint>
#include <string_view>
#include <vector>

#include "hw_models/interconnect/interconnect_fit.hpp"
#include "hw_models/interconnect/interconnect_spec.hpp"
#include "sim/ir/op_kind.hpp"

namespace lightcode::hw {

struct CollectiveAlgorithm {
  std::string_view name;
  std::string_view description;
  collective_fit::AlgorithmFit fit;
  // Whether it can run `kind` on this dimension.
  bool (*runs)(const InterconnectSpec& spec, ir::OpKind kind);
  int64_t (*steps)(ir::OpKind kind, int64_t ranks);
  double (*traffic)(ir::OpKind kind, int64_t ranks);     // per byte of buffer, busiest rank
  double (*link_bytes)(ir::OpKind kind, int64_t ranks);  // per byte of buffer, all ranks
};

struct CollectiveProtocol {
  std::string_view name;
  std::string_view description;
  double wire_efficiency;  // payload / wire bytes (sourced above)
  collective_fit::ProtocolFit fit;
  // Payload rate as a fraction of the transport's Simple rate.
  double rate_fraction() const { return wire_efficiency * fit.throughput_fraction; }
};

const std::vector<CollectiveAlgorithm>& collective_algorithms();
const std::vector<CollectiveProtocol>& collective_protocols();
const collective_fit::TransportFit& transport_fit(InterconnectTransport transport);

}  // namespace lightcode::hw
