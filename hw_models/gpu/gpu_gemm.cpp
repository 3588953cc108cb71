// GpuModel::gemm_plan: the plan a cuBLAS/CUTLASS-class library picks for one GEMM, searched
// over its tile shapes and split-K factors; the fastest plan by this model wins (ties: the
// first in search order, so the choice is deterministic).
#include <algorithm>
#include <array>
#include <cmath>

#include "hw_models/gpu/gpu_kernel_fit.hpp"
#include "hw_models/gpu/gpu_model.hpp"

namespace lightcode::hw {
namespace {

struct Tile {
  int64_t m, n;
};
// CUTLASS's Hopper/Ampere tile menu for 16-bit GEMMs (cuBLAS kernels use the same shapes);
// 64 is wgmma's smallest M.
constexpr std::array<Tile, 6> kTiles{
    {{64, 64}, {64, 128}, {128, 64}, {128, 128}, {128, 256}, {256, 128}}};
// Split-K slices are never shallower than this (a slice must amortise its pipeline fill).
constexpr int64_t kMinSplitDepth = 256;


// Mainloop efficiency of a tile (gpu_kernel_fit.hpp).
double tile_efficiency(const Tile& t) {
  const double intensity = static_cast<double>(t.m * t.n) / static_cast<double>(t.m + t.n);
  return std::min(1.0,
                  gpu_fit::kPeakEfficiency * intensity / (intensity + gpu_fit::kIntensityHalf));
}

// A wave limited by compute `c` and memory `m`: the longer, plus what the overlap loses.
double wave_seconds(double c, double m) {
  return std::max(c, m) + gpu_fit::kGemmOverlapLoss * std::min(c, m);
}

}  // namespace

KernelPlan GpuModel::gemm_plan(const GemmWork& w, bool tensor, ir::DType dtype) const {
  KernelPlan best;
  best.sms = sms_;
  best.dtype = dtype;
  best.macs = static_cast<double>(w.batch * w.m * w.n) * static_cast<double>(w.k);
  best.flops = 2.0 * best.macs;
  if (w.batch <= 0 || w.m <= 0 || w.n <= 0 || w.k <= 0) {
    best.bound = Bound::latency;
    return best;
  }
  const double sm_flops = (tensor ? tensor_rate(dtype) : 2.0 * cuda_lane_ops_per_s_) / sms_;
  const double sm_lane_ops = cuda_lane_ops_per_s_ / sms_;
  const double hbm = hbm_bytes_per_s_ * gpu_fit::kGemmHbmFraction;
  double best_s = 0.0;
  for (const Tile& tile : kTiles) {
    const double efficiency = tile_efficiency(tile);
    const int64_t tiles = w.batch * ceil_div(w.m, tile.m) * ceil_div(w.n, tile.n);
    const int64_t max_split =
        tiles < sms_
            ? std::clamp<int64_t>(sms_ / tiles, 1, std::max<int64_t>(1, w.k / kMinSplitDepth))
            : 1;
    for (int64_t split = 1; split <= max_split; ++split) {
      const int64_t ctas = tiles * split;
      const int64_t depth = ceil_div(w.k, split);
      // Whole tiles are computed: the padding of edge tiles costs time, not energy.
      const double tile_outputs = static_cast<double>(tile.m * tile.n);
      const double cta_s = 2.0 * tile_outputs * (static_cast<double>(depth) + gpu_fit::kFillDepth) /
                               (sm_flops * efficiency) +
                           tile_outputs * w.epilogue_ops / sm_lane_ops;
      // Split-K partials: each slice writes an FP32 tile, the reduction reads them back.
      const double partial =
          split > 1 ? 2.0 * static_cast<double>(w.batch * w.m * w.n * split * w.partial_bytes)
                    : 0.0;
      const double memory_s = (w.read_bytes + w.write_bytes + partial) / hbm;
      const int64_t full = ctas / sms_, rest = ctas % sms_;
      const double wave_memory_s = memory_s * sms_ / static_cast<double>(ctas);
      const double last_memory_s =
          rest > 0 ? memory_s * static_cast<double>(rest) / static_cast<double>(ctas)
                   : wave_memory_s;
      const double per_wave = wave_seconds(cta_s, wave_memory_s);
      const double last = wave_seconds(cta_s, last_memory_s);
      const int64_t waves = full + (rest > 0 ? 1 : 0);
      const double latency = gpu_fit::kGemmLatencyS + (split > 1 ? gpu_fit::kSplitLatencyS : 0.0);
      const double total = per_wave * static_cast<double>(waves - 1) + last + latency;
      if (best.ctas > 0 && total >= best_s) continue;
      best_s = total;
      best.ctas = ctas;
      best.waves = waves;
      best.per_wave = Time::from_seconds(per_wave);
      best.last_wave = Time::from_seconds(last);
      best.latency = Time::from_seconds(latency);
      best.tile_m = tile.m;
      best.tile_n = tile.n;
      best.split_k = split;
      best.bytes_read = static_cast<int64_t>(std::llround(w.read_bytes + partial / 2.0));
      best.bytes_written = static_cast<int64_t>(std::llround(w.write_bytes + partial / 2.0));
      best.bound =
          cta_s >= (full > 0 ? wave_memory_s : last_memory_s) ? Bound::compute : Bound::memory;
    }
  }
  return best;
}

}  // namespace lightcode::hw
