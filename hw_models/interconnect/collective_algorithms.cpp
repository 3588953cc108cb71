#include "hw_models/interconnect/collective_algorithms.hpp"

namespace lightcode::hw {
namespace {

using ir::OpKind;

bool reduces_or_gathers(OpKind k) {
  return k == OpKind::all_reduce || k == OpKind::reduce_scatter || k == OpKind::all_gather;
}

// ceil(log2(n)) for n >= 1.
int64_t ceil_log2(int64_t n) {
  int64_t levels = 0;
  for (int64_t reach = 1; reach < n; reach *= 2) ++levels;
  return levels;
}

double ranks_d(int64_t ranks) { return static_cast<double>(ranks); }

const CollectiveAlgorithm kRingAlgorithm{
    "ring", "each rank passes chunks to the next: reduce-scatter then all-gather",
    collective_fit::kRing,
    [](const InterconnectSpec&, OpKind k) { return reduces_or_gathers(k); },
    [](OpKind k, int64_t n) { return k == OpKind::all_reduce ? 2 * (n - 1) : n - 1; },
    [](OpKind k, int64_t n) {
      const double share = (ranks_d(n) - 1.0) / ranks_d(n);
      return k == OpKind::all_reduce ? 2.0 * share : share;
    },
    [](OpKind k, int64_t n) { return (k == OpKind::all_reduce ? 2.0 : 1.0) * (ranks_d(n) - 1.0); }};

const CollectiveAlgorithm kTreeAlgorithm{
    "tree", "double binary tree: reduce up, broadcast down, half the buffer on each tree",
    collective_fit::kTree,
    [](const InterconnectSpec& s, OpKind k) {
      return k == OpKind::all_reduce && s.topology != InterconnectTopology::ring;
    },
    [](OpKind, int64_t n) { return 2 * ceil_log2(n); },
    [](OpKind, int64_t) { return 2.0; },
    [](OpKind, int64_t n) { return 2.0 * (ranks_d(n) - 1.0); }};

const CollectiveAlgorithm kNvlsAlgorithm{
    "nvls", "NVLink SHARP: the switch reduces each shard and multicasts the result",
    collective_fit::kNvls,
    [](const InterconnectSpec& s, OpKind k) {
      return k == OpKind::all_reduce && s.topology == InterconnectTopology::switched && s.in_network_reduction;
    },
    [](OpKind, int64_t) { return int64_t{2}; },
    [](OpKind, int64_t n) { return (ranks_d(n) + 1.0) / ranks_d(n); },
    [](OpKind, int64_t n) { return ranks_d(n) + 1.0; }};

const CollectiveAlgorithm kPointToPointAlgorithm{
    "p2p", "one transfer from a device to the next (pipeline stages)",
    collective_fit::kPointToPoint,
    [](const InterconnectSpec&, OpKind k) { return k == OpKind::send_recv; },
    [](OpKind, int64_t) { return int64_t{1}; },
    [](OpKind, int64_t) { return 1.0; },
    [](OpKind, int64_t) { return 1.0; }};

}  // namespace

const std::vector<CollectiveAlgorithm>& collective_algorithms() {
  static const std::vector<CollectiveAlgorithm> algorithms{kRingAlgorithm, kTreeAlgorithm, kNvlsAlgorithm,
                                                           kPointToPointAlgorithm};
  return algorithms;
}

const std::vector<CollectiveProtocol>& collective_protocols() {
  static const std::vector<CollectiveProtocol> protocols{
      {"LL", "low latency: 8-byte stores of data and flag, no fence", 0.5, collective_fit::kLowLatency},
      {"LL128", "128-byte lines, 120 of data, synchronised per warp", 120.0 / 128.0,
       collective_fit::kLowLatency128},
      {"Simple", "bare data, a fence and a flag per chunk", 1.0, collective_fit::kSimple},
  };
  return protocols;
}

const collective_fit::TransportFit& transport_fit(InterconnectTransport transport) {
  switch (transport) {
    case InterconnectTransport::nvlink: return collective_fit::kNvlink;
    case InterconnectTransport::pcie: return collective_fit::kPcie;
    case InterconnectTransport::network: return collective_fit::kNetwork;
  }
  return collective_fit::kNvlink;
}

}  // namespace lightcode::hw
