#pragma once
// The original LightCode's rules that are not hardware figures (reference/LIGHTCODE_MODEL.md),
// in one place. Only the `lightcode` profile reads them. Every hardware figure the original
// uses (fits, clocks, energies, DAC/ADC) is read from configs/hardware/*_lightcode.yaml.
namespace lightcode::hw::lc {

// The CPU's matrix-product fits switch to their second regime when any input dimension is
// above this (the original's rule: it separates GPT-2's vocabulary projection).
inline constexpr long long kBigMatmulDimension = 50000;
// Transfer times beyond one SRAM cycle: writing HBM, and the PHU's extra on SRAM <-> PHU.
inline constexpr double kHbmWriteSeconds = 10e-9;
inline constexpr double kPhuLinkSeconds = 10e-9;
// The two 1 pJ terms of every link between SRAM and a core ("12+1+1", "1+1+12" in the
// reference, which does not name them), per 32-bit number.
inline constexpr double kCoreLinkTermPj = 1.0;

}  // namespace lightcode::hw::lc
