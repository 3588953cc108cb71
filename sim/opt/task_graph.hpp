#pragma once
// The placed, expanded program: one task per op that runs, on one unit type, with its Cost
// and the transfer Cost of each input from its producer's unit. Photonic products are
// expanded (split on SRAM, one 2-D product per batch element, merge on SRAM); each subgraph
// of the lightcode profile starts with a `start` task; a chosen fused group is one task
// covering its ops. Tasks are in a topological order;
// their ids are indices. Schedulers and the event engine read only this.
#include <cstdint>
#include <string>
#include <vector>

#include "hw_models/cost.hpp"
#include "hw_models/hardware_model.hpp"
#include "hw_models/transfer_model.hpp"
#include "sim/ir/fusion.hpp"
#include "sim/ir/graph.hpp"

namespace lightcode::opt {

using TaskId = int32_t;

struct TaskInput {
  TaskId producer = 0;
  hw::Cost transfer;  // moving the producer's data to this task's unit
};

struct Task {
  std::string name;        // stable and readable: the node's name, "<name>/split", "<name>/mm3"
  ir::OpKind kind = ir::OpKind::other;
  std::string kind_name;
  ir::NodeId node = -1;    // the ir node it implements (-1 for start tasks)
  hw::UnitType unit = 0;   // unit type it runs on
  hw::AlgorithmId algorithm = 0;
  hw::Cost cost;
  int32_t subgraph = 0;
  std::vector<TaskInput> inputs;
  // The original's partition: a cut op runs again as the first task of the next subgraph
  // (its time on its unit, no energy, not a node of the final graph), and a graph output
  // occupies no unit (it ends when its producers' compute does).
  bool repeat = false;
  bool off_unit = false;
  // Where the task stands in its subgraph's node list (Partition::node_list; after expansion
  // each expanded op's split, products and merge before the rest): the original's scheduler
  // places ready tasks in increasing rank. Without a node list, the task's index.
  int64_t rank = 0;
  std::vector<ir::TensorType> input_types;  // what the op reads (cost models re-derive plans)
  std::vector<ir::TensorType> outputs;
  // A fused kernel (sim/ir/fusion.hpp): its index in TaskGraph::kernels and the nodes it
  // covers, ascending; -1 and empty for a task that runs one op (or part of one).
  int32_t fused = -1;
  std::vector<ir::NodeId> covers;
};

struct TaskGraph {
  std::vector<Task> tasks;
  int32_t subgraphs = 1;
  std::vector<ir::FusedKernel> kernels;  // of the fused tasks
};

}  // namespace lightcode::opt
