#pragma once
// From a placement to tasks. Photonic dense / batch_matmul / pack become an SRAM split, one
// 2-D product (matrix_matrix) per batch element, each costed on its own 2-D shapes, and an
// SRAM merge; every other op is one task on its chosen unit. Task names are the node's name,
// "<name>/split", "<name>/mm<i>", "<name>/merge"; each `lightcode` subgraph starts with a
// "start<k>" task. Profile rules (docs/LIGHTCODE_PROFILE.md):
//   lightcode: an input edge that crosses an articulation comes from the subgraph's start,
//     free; so does every task without an input inside its subgraph. The edges inside an
//     expansion move no data (split -> product -> merge cost only their link time). A graph
//     output fed only by crossing edges is written out by SRAM at its memory clock.
//   default: every edge moves its producer's output; expansion edges carry the operands.
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/opt/task_graph.hpp"

namespace lightcode::opt {

TaskGraph expand(const StackedGraph& stacks, const Partition& part, const Placement& placement);

}  // namespace lightcode::opt
