#pragma once
// The collective cost model's fitted constants (collective_cost.hpp): one set for every
// interconnect, which differ only in their hardware keys (bandwidth, latency, topology). Fitted
// to ../shared/reference/network/vidur_h100_collectives.csv (measured NCCL kernel times on H100:
// DGX all_reduce on 2/4/8 GPUs, send/recv within and between DGX nodes, H100 NVL all_reduce on
// 2/4 cards, 2 KB-64 MB) by tools/fit_collectives.py: Powell then Nelder-Mead on the mean
// |relative error|, each of the seven configurations weighted equally, with the shipped hardware
// files' keys (nvlink4_nvswitch, infiniband_ndr, nvlink4_pairwise_bridge, pcie5_x16.yaml). The
// values were rounded to three figures. The errors below are the C++ model's, as
// `lightcode validate-collectives` measures them (tools/validation_report.py --collectives).
// Fit error (mean |error|, sizes >= 1 MB / below): H100 DGX all_reduce 6.3 % / 36.4 % (n=2
// 7.3 % / 53 %, n=4 9.1 % / 40 %, n=8 2.5 % / 16 %); send/recv intra-node 2.3 % / 4.6 %,
// inter-node 3.2 % / 10.1 %; H100 NVL all_reduce n=2 3.5 % / 47 %, n=4 (over PCIe) 0.6 % / 38 %. Below 1 MB the measured times are
// 5-45 us and bimodal (rank arrival skew inside the timed NCCL kernel), which no size law fits.
// What the data cannot resolve is said beside each constant ("not resolved").
namespace lightcode::hw::collective_fit {

// A transport (NCCL's NVLink P2P, PCIe P2P, network proxy): the fraction of the link's per-
// direction rate a Simple-protocol point-to-point stream reaches, and the software latency each
// algorithm step adds beyond the hardware's `latency` key.
struct TransportFit {
  double bandwidth_fraction;
  double step_overhead_s;
};
// NVLink: the reference (overhead 0 by definition); fraction fitted mainly to the intra-node
// send/recv rows (358 GB/s of 450 at 16-64 MB).
inline constexpr TransportFit kNvlink{0.803, 0.0};
// PCIe: fitted to one configuration only (H100 NVL all_reduce on 4 cards, whose ring crosses two
// PCIe Gen5 hops), so it is weakly determined.
inline constexpr TransportFit kPcie{0.908, 3.53e-6};
// Network: fitted to the inter-node send/recv rows (one 400 Gb/s NIC each side).
inline constexpr TransportFit kNetwork{0.728, 10.2e-6};

// An algorithm: the latency it pays once per call (kernel launch to first step, and the
// synchronisation of the ranks, which the measured kernel times include), and the fraction of
// the transport's rate it reaches (a ring all-reduce also reads, adds and writes each chunk).
struct AlgorithmFit {
  double base_latency_s;
  double bandwidth_fraction;
};
inline constexpr AlgorithmFit kRing{16.3e-6, 0.867};
// Inference, not fitted: a tree is never much faster than the ring in these rows except at
// small sizes, where the fit was made with the ring's constants for it; same kernel machinery.
inline constexpr AlgorithmFit kTree = kRing;
// NVLS: fitted to the DGX all_reduce rows on 4 and 8 GPUs at >= 16 MB (about 220 GB/s of buffer
// per GPU at both, as (n+1)/n traffic per direction predicts and a ring's 2(n-1)/n does not).
inline constexpr AlgorithmFit kNvls{38.5e-6, 0.675};
// Point to point: its rate is the transport's by definition.
inline constexpr AlgorithmFit kPointToPoint{6.2e-6, 1.0};

// A protocol: the fraction of its wire rate (LL: half the bytes are flags; LL128: 8 flag bytes
// per 128; Simple: none -- collective_cost.cpp) that its flag handling sustains, and its
// latency per step. Not resolved: the measured small-size times are dominated by the skew noted
// above, so these came out with LL and LL128 equally fast per step (0) and throttled to 25 % and
// 17 % of their wire rates, Simple 0.89 us slower per step at its full rate. LL is therefore
// never chosen with these constants (LL128, as fast per step, moves more payload per second),
// and its throughput is not determined at all (other starts give 8 % with the same error);
// LL128 wins below a few hundred KB, Simple above.
struct ProtocolFit {
  double throughput_fraction;
  double step_latency_s;
};
inline constexpr ProtocolFit kLowLatency{0.248, 0.0};
inline constexpr ProtocolFit kLowLatency128{0.170, 0.0};
inline constexpr ProtocolFit kSimple{1.0, 0.89e-6};  // fraction 1: the transport's is Simple's

}  // namespace lightcode::hw::collective_fit
