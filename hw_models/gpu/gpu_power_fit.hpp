#pragma once
// The GPU power model's shared constants: one set for every GPU, which differ only in their
// datasheet keys (tdp, tensor_throughput, CUDA cores and clock) and their measured idle power
// (static_power, a key with its source in each file). The model (gpu_model.hpp):
//   board power = static_power (idle, a CUDA context resident)
//               + active_power while a kernel runs (clocks, SM and L2 leakage at the running
//                 DVFS state, stalled pipelines: what a memory-bound kernel draws beyond idle)
//               + dynamic energy / kernel time, the dynamic energy being
//                 tensor-core FLOPs x energy per tensor FLOP (per dtype)
//               + CUDA-core FLOPs (and element-wise lane ops) x energy per CUDA FLOP
//               + HBM bytes x energy per HBM byte (array, PHY and the on-chip path to the SMs:
//                 L2 and shared-memory traffic are not counted apart, no data separates them).
// Energy per FLOP of a pipe is a share of the TDP spread over that pipe's peak rate:
//   energy per tensor FLOP (dtype) = kTensorShare x tdp / tensor_throughput(dtype),
// so that the figures of a GPU come from its datasheet, and a dtype with twice the rate (FP8)
// costs half per FLOP. A kernel whose power would exceed power_limit runs at a lower clock:
// its time stretches until its power is the limit (the energy per operation is taken as
// independent of the clock: DVFS also lowers the voltage, so this overstates the energy of a
// throttled kernel slightly).
namespace lightcode::hw::gpu_power {

// Power drawn beyond idle while a kernel runs, as a share of the TDP. PROVISIONAL: an assumption
// (a tenth of the TDP), and so is the HBM energy below. The ML.ENERGY v2 serving rows
// (../shared/reference/energy/mlenergy_v2_mistral7b_codellama.csv, reproduced by
// scenarios/mlenergy_chat.yaml and mlenergy_code.yaml) do not pin them down: vLLM 0.5.4 keeps
// the GPU busy only 16-66 % of the time (the engine's host time, fitted there, is the rest), and
// a fit of these two constants with the power during that host time (least squares on energy
// per output token, every value at or above its physical floor) chose an active share of 0 and
// 25.0 pJ/bit, with no power above idle while the host works: mean |error| 7.3 % (A100) and
// 7.4 % (H100), max 14.8 %. Not adopted: 25 pJ/bit at the H100's 3.35 TB/s is 670 W, so every
// memory-bound kernel would throttle at the 700 W limit, which real decode kernels do not; the
// fit trades the per-byte energy for what it cannot see (the code rows draw 380-394 W where our
// GPU is busy a third of the time, more than a kernel may draw: our reading is that the code
// prompts are longer than the scenario assumes, or vLLM's attention slower than modelled).
// With these constants and the host-time power fitted per GPU instead, the rows are within
// 13.5 / 12.7 % mean and 26.5 / 27.7 % max (A100 / H100, energy per token: docs/VALIDATION.md).
inline constexpr double kActiveShare = 0.10;
// Tensor FLOP energy as a share of the TDP at the dtype's peak rate. Fitted to the GEMM-at-limit
// evidence of ../shared/reference/energy/gpu_power_facts.md section 4: an 8192^3 BF16 GEMM on an
// A100 SXM at its 400 W limit reaches 258 TFLOP/s (random inputs), so
//   85 W (idle, static_power of a100_sxm.yaml) + kActiveShare x 400 W + e x 258 TFLOP/s = 400 W,
//   e = kTensorShare x 400 W / 312 TFLOP/s  =>  kTensorShare = (315 W - kActiveShare x 400 W) / 330.8 W.
inline constexpr double kTensorShare = (315.0 - kActiveShare * 400.0) / 330.8;
// CUDA-core FLOP energy as the same share of the TDP at the FP32 (FMA) peak. INFERENCE: no
// measurement separates the CUDA cores' energy; taking the tensor pipe's share says both pipes
// at full rate would draw the same power.
inline constexpr double kCudaShare = kTensorShare;
// HBM energy per bit moved by a kernel (HBM2e and HBM3 alike). PROVISIONAL: 3.9 pJ/bit, the HBM2
// figure the configs cited before (O'Connor et al., "Fine-Grained DRAM", MICRO 2017; its per-bit
// breakdown could not be re-read for gpu_power_facts.md section 5, so it is unverified here);
// the serving fit that would replace it is described above kActiveShare.
inline constexpr double kHbmEnergyPerBitJ = 3.9e-12;

}  // namespace lightcode::hw::gpu_power
