#pragma once
// Default-profile memories. One unit each.
//   HBM runs `memory` nodes (graph inputs: weights, tokens, KV cache), which are resident
//   before the run: time 0, energy = numbers x (read_energy + preload_energy), where a number
//   is 32 bits of the tensor (bytes / 4), so a BF16 weight costs half an FP32 one.
//   SRAM runs the bookkeeping ops of expanded photonic products (sram_split, sram_merge):
//   one cycle of its clock, op_energy each.
//   A `buffer` runs no ops; it only terminates links.
// Moving data in and out of a memory is the TransferModel's business, not this one's.
#include <memory>
#include <vector>

#include "hw_models/hardware_model.hpp"
#include "hw_models/memory/memory_spec.hpp"
#include "hw_models/registry.hpp"

namespace lightcode::hw {

enum MemoryAlgorithm : AlgorithmId {
  kMemoryResident = 0,     // HBM: graph inputs already in place
  kMemoryBookkeeping = 1,  // SRAM: split/merge of expanded products
};

std::unique_ptr<HardwareModel> make_memory_model(const MemorySpec& spec);
// What a memory of `level` is to the layers above (HBM keeps tensors; SRAM and buffers hold
// them on chip); shared with the lightcode profile's memory models.
// A memory's capabilities: residence, transfer role and energy column by level, and its clock
// and capacity (0: none / unbounded).
Capabilities memory_capabilities(MemoryLevel level, double clock_hz = 0.0, int64_t capacity_bytes = 0);
std::vector<AlgorithmInfo> memory_algorithms();

}  // namespace lightcode::hw
