#pragma once
// The scenario keys, each declared once (type, default, doc): the stages' tables list the rows
// they read (a key several stages read is one row), and docs/CONFIG.md is generated from them.
// Beside them, the checks of a key's value that crossover studies share with the stages:
// every value is checked where it stands (file, line, key).
#include <string>

#include "sim/core/config.hpp"
#include "sim/core/params.hpp"

namespace lightcode::sweep::rows {

const Param& model();
const Param& traced_length();
const Param& stage();
const Param& logits();
const Param& precision();
const Param& dtype_precision();
const Param& sequence_length();
const Param& new_tokens();
const Param& system();
const Param& objective();
const Param& profile();
const Param& scheduler();
const Param& fidelity();
const Param& pareto();
const Param& placement_evaluations();
const Param& tensor_parallel();
const Param& pipeline_parallel();
const Param& placement_reuse();  // stages serve and generate

// A built-in model name, or a TVM graph file resolved against the value's file (which must
// exist).
std::string model_value(const ConfigNode& value);
// A system file resolved against the value's file; it must exist.
std::string system_value(const ConfigNode& value);
// Registered names: an unknown one is an error at the value listing the known ones.
std::string objective_value(const ConfigNode& value);
std::string profile_value(const ConfigNode& value);
std::string scheduler_value(const ConfigNode& value);
// A file a value names (a trace, a dispatch table), resolved against the value's file; it must
// exist. `what` names it in the error ("trace file").
std::string existing_file(const ConfigNode& value, const std::string& what);

// Whether `system` under `profile` has a unit that models precision; a system that does not
// load counts as one (the point reports the system's own error). Memoised by file and profile.
bool system_models_precision(const std::string& system, const std::string& profile);

}  // namespace lightcode::sweep::rows
