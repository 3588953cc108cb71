#pragma once
// From a placement to tasks. Photonic dense / batch_matmul / pack become their photonic
// expansion (photonic_expansion.hpp): a split on the staging memory, one 2-D product
// (matrix_matrix) per batch element, each costed on its own 2-D shapes, and a merge on the
// staging memory; a chosen fused group is one task "<anchor name>/<rule>" covering its ops (kind
// name: the rule), its inputs the members' reads from outside the group, each tensor once;
// every other op is one task on its chosen unit. Task names are the node's name,
// "<name>/split", "<name>/mm<i>", "<name>/merge"; each `lightcode` subgraph starts with a
// "start<k>" task on the system's start unit. Every input edge is a task input with its
// transfer cost (so the report charges every edge once). With a partition whose groups share their cut op, a group repeats
// that op as "<name>/again" (its time, no energy; its in-group consumers read that run), and
// a node the partition marks off_unit becomes a task with no time. Profile rules
// (docs/LIGHTCODE_PROFILE.md):
//   lightcode: a task without a producer inside its subgraph reads the subgraph's start
//     (free); the edges inside an expansion move no data (split -> product -> merge cost only
//     their link time).
//   default: every edge moves its producer's output; expansion edges carry the operands.
#include "sim/opt/partition.hpp"
#include "sim/opt/placement.hpp"
#include "sim/opt/stacked_graph.hpp"
#include "sim/opt/task_graph.hpp"

namespace lightcode::opt {

TaskGraph expand(const StackedGraph& stacks, const Partition& part, const Placement& placement);

}  // namespace lightcode::opt
