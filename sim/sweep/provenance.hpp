#pragma once
// What a results file was computed from (DESIGN.md, "Results know their inputs"), and whether
// the scenario at hand still is that. A sweep's parts and results file record the scenario's
// name, text and digest and every input file with its SHA-256 (sim/results/hdf5_file.hpp);
// --resume and merge compare them, so points of two scenarios never end up in one file.
//
// The digest is the SHA-256 of, each length-prefixed: the scenario text, the command-line
// settings (`key=value`, in the order given: later ones win), and every input file's path
// relative to the scenario's directory with the SHA-256 of its bytes, sorted by path. The
// inputs are the files read while the scenario was loaded and its points' inputs checked
// (inputs_read_since a mark taken before load_scenario, after validate_point_inputs, which
// reads every system, hardware file, device library, model, trace and dispatch table); the
// scenario file itself is its text.
#include <string>
#include <vector>

#include "sim/core/input_file.hpp"
#include "sim/results/report.hpp"
#include "sim/sweep/scenario.hpp"

namespace lightcode::sweep {

// A results file without points, stamped with the scenario's tool version, text, name,
// digest and inputs: sweeps copy it into every part and into the results file.
results::ResultsFile results_header(const Scenario& scenario, const std::vector<std::string>& settings,
                                    const std::vector<RecordedInput>& read);

// What differs between the provenance `recorded` (of a file written earlier, described by
// `written`: "the parts were written", "results/x.h5 was written") and `current`, one clause
// per difference joined by "; ": "scenarios/x.yaml changed since the parts were written",
// "input configs/hardware/h100_sxm.yaml changed since ...", "input ... is new: ... without
// it", "input ... is gone: ... with it", the command-line settings, or no digest recorded at
// all. Input paths are shown relative to the working directory (through `scenario_file`'s
// directory). "" when the digests are equal.
std::string provenance_change(const results::ResultsFile& recorded, const results::ResultsFile& current,
                              const std::string& scenario_file, const std::string& written);

// The digest of a merge of several scenarios: of each source's name and digest, in the
// order given; "" when a source has none.
std::string sources_digest(const std::vector<results::ScenarioSource>& sources);

}  // namespace lightcode::sweep
