// GpuModel::plan_fused: the kernel one fused group (sim/ir/fusion.hpp) becomes.
//   gemm        one GEMM over the group's shape (a horizontal group: its summed N); every
//               external operand (activations, weights, epilogue operands) is read once,
//               every output written once; the epilogue's element-wise work runs on the CUDA
//               cores of the CTA that owns the tile.
//   attention   FlashAttention-2 style: one CTA per (head, 128-query block) walks the key
//               blocks it needs (causal: none above the diagonal), two tensor-core products
//               per block and the exps on the SFUs, one after the other (FA2 does not overlap
//               them); Q, K, V read and O written once, no [T, T] tensor in HBM (a causal
//               mask operand is not read: the kernel computes it). CTAs are alike: each does
//               the average causal work (an approximation of the per-block imbalance). Fewer
//               queries than a block take a 16-row MMA tile; a decode's (at most 16 queries)
//               keys are split among CTAs that fill the SMs, flash-decoding style.
//   norm, rope, activation   streaming kernels of their class (gpu_kernel_fit.hpp): bytes =
//               external inputs + outputs, lane ops = the members' element-wise work, one CTA
//               per row (a rotary kernel: per token, all heads).
#include <algorithm>
#include <cmath>

#include "hw_models/gpu/gpu_kernel_fit.hpp"
#include "hw_models/gpu/gpu_model.hpp"
#include "sim/ir/metrics.hpp"

namespace lightcode::hw {
namespace {


int64_t largest_elements(const std::vector<ir::TensorType>& ts) {
  int64_t n = 0;
  for (const ir::TensorType& t : ts) n = std::max(n, t.shape.elements());
  return n;
}

// Rows (elements / last dimension) of the largest tensor: one CTA each.
int64_t largest_rows(const std::vector<ir::TensorType>& ts) {
  const ir::TensorType* big = nullptr;
  for (const ir::TensorType& t : ts) {
    if (!big || t.shape.elements() > big->shape.elements()) big = &t;
  }
  if (!big || big->shape.rank() == 0 || big->shape.back() <= 0) return 1;
  return big->shape.elements() / big->shape.back();
}

// Tokens of a rotary kernel's largest output: a rotary kernel runs one CTA per token over all
// its heads (vLLM's rotary_embedding), so [.., heads, T, d] has T tokens per leading index.
int64_t rope_rows(const std::vector<ir::TensorType>& ts) {
  const ir::TensorType* big = nullptr;
  for (const ir::TensorType& t : ts) {
    if (!big || t.shape.elements() > big->shape.elements()) big = &t;
  }
  if (!big || big->shape.rank() < 3) return largest_rows(ts);
  const ir::Shape& s = big->shape;
  const int64_t per_row = s.back() * s.from_back(3);
  return per_row > 0 ? s.elements() / per_row : 1;
}

}  // namespace

KernelPlan GpuModel::plan_fused(const ir::FusedKernel& kernel) const {
  const double sfu_cost = static_cast<double>(spec_.fp32_cores_per_sm) / spec_.sfus_per_sm;
  double element_ops = 0.0;
  for (const ir::ElementOp& e : kernel.element_ops) {
    element_ops += static_cast<double>(e.elements) * gpu_lane_ops_per_element(e.kind, sfu_cost);
  }
  KernelPlan p;
  switch (kernel.cls) {
    case ir::KernelClass::gemm: {
      GemmWork w =
          GemmWork::of(kernel.batch, kernel.m, kernel.n, kernel.k, kernel.inputs, kernel.outputs);
      const double outputs = static_cast<double>(kernel.batch * kernel.m * kernel.n);
      w.epilogue_ops = outputs > 0.0 ? element_ops / outputs : 0.0;
      p = gemm_plan(w, tensor_rate(kernel.dtype) > 0.0, kernel.dtype);
      p.flops += element_ops;
      break;
    }
    case ir::KernelClass::attention:
      p = attention_plan(kernel);
      p.flops += element_ops;
      break;
    case ir::KernelClass::norm:
    case ir::KernelClass::rope:
    case ir::KernelClass::activation: {
      StreamWork w;
      w.bytes_read = static_cast<double>(ir::total_bytes(kernel.inputs));
      w.bytes_written = static_cast<double>(ir::total_bytes(kernel.outputs));
      w.elements = std::max(largest_elements(kernel.inputs), largest_elements(kernel.outputs));
      w.rows = kernel.cls == ir::KernelClass::rope ? rope_rows(kernel.outputs)
                                                   : largest_rows(kernel.outputs);
      w.lane_ops = element_ops;
      const Stream cls = kernel.cls == ir::KernelClass::norm   ? Stream::reduction
                         : kernel.cls == ir::KernelClass::rope ? Stream::rope
                                                               : Stream::activation;
      p = stream_plan(w, cls);
      break;
    }
  }
  p.algorithm = kGpuFused;
  return finish(p);
}

KernelPlan GpuModel::attention_plan(const ir::FusedKernel& kernel) const {
  KernelPlan p;
  p.sms = sms_;
  p.dtype = kernel.dtype;
  const int64_t block = gpu_fit::kAttentionBlock;
  const int64_t heads = kernel.batch, m = kernel.m, n = kernel.n, d = kernel.k;
  if (heads <= 0 || m <= 0 || n <= 0 || d <= 0) {
    p.bound = Bound::latency;
    return p;
  }
  // A query tile of `block` rows, or for fewer queries the 16-row MMA tile they pad to (a
  // decode's one query does not pay for 128 rows).
  const int64_t q_tile = m >= block ? block : std::max<int64_t>(16, ceil_div(m, 16) * 16);
  const int64_t query_blocks = ceil_div(m, q_tile), key_blocks = ceil_div(n, block);
  // Causal: the queries are the last m of n positions; query block i needs the key blocks up
  // to its last query's position.
  double blocks_per_cta = static_cast<double>(key_blocks);
  double useful_pairs = static_cast<double>(m) * static_cast<double>(n);
  if (kernel.causal) {
    int64_t sum = 0;
    for (int64_t i = 0; i < query_blocks; ++i) {
      const int64_t last = std::min(n, n - m + (i + 1) * q_tile);
      sum += std::min(key_blocks, ceil_div(last, block));
    }
    blocks_per_cta = static_cast<double>(sum) / static_cast<double>(query_blocks);
    // Query q (0-based among m) attends to n - m + q + 1 keys.
    useful_pairs = static_cast<double>(m) * static_cast<double>(n - m) +
                   static_cast<double>(m) * static_cast<double>(m + 1) / 2.0;
  }
  // Flash-decoding (vLLM's paged attention v2, FlashDecoding): with at most one MMA tile of
  // queries, the (head, query block) CTAs are too few to fill the SMs, so the keys are split
  // among more CTAs, each writing a partial result (FP32 output and its softmax max and sum)
  // that a second pass combines. INFERENCE (no attention rows in the kernel data): the split
  // fills the SMs once, at least one key block per CTA.
  int64_t splits = 1;
  if (m <= 16 && heads * query_blocks < sms_) {
    splits = std::clamp<int64_t>(sms_ / (heads * query_blocks), 1, std::max<int64_t>(1, static_cast<int64_t>(blocks_per_cta)));
  }
  if (splits > 1) blocks_per_cta = std::ceil(blocks_per_cta / static_cast<double>(splits));
  p.macs = 2.0 * static_cast<double>(heads) * useful_pairs * static_cast<double>(d);
  p.flops = 2.0 * p.macs;
  const bool tensor = tensor_rate(kernel.dtype) > 0.0;
  const double intensity = static_cast<double>(q_tile * block) / static_cast<double>(q_tile + block);
  const double tile_efficiency =
      std::min(1.0, gpu_fit::kPeakEfficiency * intensity / (intensity + gpu_fit::kIntensityHalf));
  const double sm_flops = (tensor ? tensor_rate(kernel.dtype) : 2.0 * cuda_lane_ops_per_s_) / sms_;
  const double block_pairs = static_cast<double>(q_tile * block);
  const double mma_s = blocks_per_cta * 4.0 * block_pairs * static_cast<double>(d) /
                       (sm_flops * tile_efficiency * gpu_fit::kAttentionEfficiency);
  const double exp_s = blocks_per_cta * block_pairs / (spec_.sfus_per_sm * spec_.clock_hz);
  const double cta_s = mma_s + exp_s;

  int64_t read = 0;
  for (const ir::TensorType& t : kernel.inputs) {
    const ir::Shape& s = t.shape;
    const bool mask = kernel.causal && s.rank() >= 2 && s.back() == n && s.from_back(2) == m;
    if (!mask) read += t.bytes();
  }
  // The split's partials: each CTA's rows of output and two statistics in FP32, written and
  // read back by the combining pass.
  const int64_t partial = splits > 1 ? heads * m * splits * (d + 2) * 4 : 0;
  p.bytes_read = read + partial;
  p.bytes_written = ir::total_bytes(kernel.outputs) + partial;
  const double memory_s = static_cast<double>(p.bytes_read + p.bytes_written) /
                          (hbm_bytes_per_s_ * gpu_fit::kGemmHbmFraction);
  p.ctas = heads * query_blocks * splits;
  p.tile_m = q_tile;
  p.tile_n = block;
  p.split_k = splits;
  const int64_t full = p.ctas / sms_, rest = p.ctas % sms_;
  p.waves = full + (rest > 0 ? 1 : 0);
  const double wave_memory_s = memory_s * sms_ / static_cast<double>(p.ctas);
  const double last_memory_s =
      rest > 0 ? memory_s * static_cast<double>(rest) / static_cast<double>(p.ctas) : wave_memory_s;
  p.per_wave = Time::from_seconds(std::max(cta_s, wave_memory_s));
  p.last_wave = Time::from_seconds(std::max(cta_s, last_memory_s));
  p.latency = Time::from_seconds(gpu_fit::kGemmLatencyS + (splits > 1 ? gpu_fit::kSplitLatencyS : 0.0));
  p.bound = cta_s >= (full > 0 ? wave_memory_s : last_memory_s) ? Bound::compute : Bound::memory;
  return p;
}

Cost GpuModel::estimate_fused(const ir::FusedKernel& kernel) const {
  return cost_of(plan_fused(kernel));
}

}  // namespace lightcode::hw
