#pragma once
// `lightcode validate-collectives`: the interconnect family's collective cost model
// (hw_models/interconnect/collective_cost.hpp) against measured NCCL kernel times,
// ../shared/reference/network/vidur_h100_collectives.csv. Each reference row is predicted by
// estimate_collective on the interconnect file that is its hardware:
//   h100 dgx, intra-node (all_reduce on 2/4/8 GPUs, send_recv)  nvlink4_nvswitch.yaml
//   h100 dgx, inter-node (send_recv between two nodes)          infiniband_ndr.yaml
//   h100 pairwise_nvlink, 2 ranks (one bridged pair)            nvlink4_pairwise_bridge.yaml
//   h100 pairwise_nvlink, 4 ranks (ring over two PCIe hops)     pcie5_x16.yaml
// A row of another configuration is an error naming its line. Pure: same files, same rows.
#include <string>
#include <vector>

#include "sim/results/validation_file.hpp"

namespace lightcode::validate {

struct CollectiveOptions {
  std::string reference;     // the measured CSV
  std::string hardware_dir;  // where the interconnect files above are (configs/hardware)
};

// One measured row of the reference CSV.
struct CollectiveReferenceRow {
  std::string device, topology, collective, scope;
  int64_t ranks = 0, size_bytes = 0, repeat = 0;
  double measured_s = 0.0;  // time_ms_median
  int line = 0;
};

// Throws lightcode::Error naming the file and line of a malformed row or a missing column.
std::vector<CollectiveReferenceRow> read_collective_reference(const std::string& path);

results::CollectiveValidationFile run_collective_validation(const CollectiveOptions& options);

}  // namespace lightcode::validate
