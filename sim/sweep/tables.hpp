#pragma once
// The parameter tables of the sweep layer's files, each key declared once with its type,
// default and doc (docs/CONFIG.md is generated from them):
//   scenario_table()       scenarios/*.yaml read by `lightcode run` and `lightcode sweep`
//   sweep_range_table()    a sweep axis given as a range {start, stop, step | factor}
//   crossover_table()      scenarios read by `lightcode crossover` (scenarios/crossover.yaml),
//                          with its nested `lengths` and `thresholds` tables
// The scenario keys that are point fields (model ... fidelity) may also be sweep axes; a value
// counts as read when some point reads it (scenario_key_read says which points read which key).
#include <string>
#include <string_view>

#include "sim/core/params.hpp"

namespace lightcode::sweep {

struct PointSpec;

const ParamTable& scenario_table();
const ParamTable& sweep_range_table();
const ParamTable& crossover_table();
// stage serve's nested tables: a replica, batching, generated requests, a length
// distribution, latency targets.
const ParamTable& serve_replica_table();
const ParamTable& serve_batching_table();
const ParamTable& serve_requests_table();
const ParamTable& serve_length_table();
const ParamTable& serve_slo_table();

// Whether `point` reads scenario key `key`: traced_length only when its model is a TVM graph
// file (it sizes an imported graph), logits only when it is a built-in model, new_tokens only
// at stage generate, precision only when its system has a unit that models precision (the
// system is loaded, once per file and profile); the serving keys only at stage serve (requests
// and arrival_rate without a trace, trace with one, the dispatch table with prompt_length
// dispatch), which reads none of system, sequence_length, traced_length, logits, precision,
// pareto and fidelity; every other point field always.
bool scenario_key_read(const PointSpec& point, std::string_view key);
// What a point needs to read `key` ("stage: generate"), for the unread-key errors; "" for
// keys every point reads.
std::string read_only_with(std::string_view key);

}  // namespace lightcode::sweep
